// The panel shell: tabs, global toolbar (rate, pause, theme, export/import),
// banners, the current view, the replay dialog, and the keyboard map.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { PanelStore, View } from '../store';
import { SAMPLE_RATES, type ThemeChoice } from '../store/ui';
import { DeadLettersView } from './DeadLettersView';
import { MailboxesView } from './MailboxesView';
import { MetricsView } from './MetricsView';
import { ReplayDialog } from './ReplayDialog';
import { BulkDialog } from './BulkDialog';
import { OtherStreamsView } from './OtherStreamsView';
import type { OtherStreamsModel } from '../store/otherStreams';
import { Icon } from './Icon';
import type { CopyFn } from './JsonTree';

const TABS: { view: View; label: string }[] = [
  { view: 'mailboxes', label: 'Mailboxes' },
  { view: 'dead-letters', label: 'Dead letters' },
  { view: 'metrics', label: 'Metrics' },
];
const NEXT_THEME: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const THEME_LABEL: Record<ThemeChoice, string> = { system: 'auto', light: 'light', dark: 'dark' };

function useSystemDark(): boolean {
  const query = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  const [dark, setDark] = useState(query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const on = (e: MediaQueryListEvent) => setDark(e.matches);
    query.addEventListener?.('change', on);
    return () => query.removeEventListener?.('change', on);
  }, []);
  return dark;
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

export interface AppProps {
  store: PanelStore;
  onCopy: CopyFn;
  onExport: () => void;
  /** Other processes' streams of a shared store (over the DevTools protocol only). */
  otherStreams?: OtherStreamsModel;
}

export function App({ store, onCopy, onExport, otherStreams }: AppProps) {
  const { ui, emit, deadLetters } = store;
  const systemDark = useSystemDark();
  const fileRef = useRef<HTMLInputElement>(null);
  const theme = ui.theme.value === 'system' ? (systemDark ? 'dark' : 'light') : ui.theme.value;
  const view = ui.view.value;
  const imported = ui.imported.value;

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      emit({ type: 'close' });
      return;
    }
    if (isTyping(e.target)) return;
    if (e.key === '/') {
      e.preventDefault();
      emit({ type: 'focus-filter' });
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      emit({ type: 'move', delta: e.key === 'ArrowDown' ? 1 : -1 });
    } else if (e.key === ' ' && view === 'dead-letters' && (e.target as HTMLElement | null)?.getAttribute?.('data-testid') === 'dl-row') {
      // Space checks the focused letter for a bulk action (Shift+Space: the range up to it).
      e.preventDefault();
      const id = (e.target as HTMLElement).getAttribute('data-id');
      if (id !== null) emit({ type: 'bulk/click', id, mode: e.shiftKey ? 'range' : 'toggle' });
    } else if (e.key === 'Enter' && (e.target as HTMLElement | null)?.tagName !== 'BUTTON') {
      emit({ type: 'open' });
    } else if ((e.key === 'r' || e.key === 'R') && !e.ctrlKey && !e.metaKey && !e.altKey && view === 'dead-letters') {
      // The focused row if there is one (focus and selection may differ), else the selected letter.
      const focused = (e.target as HTMLElement | null)?.closest?.('[data-testid=dl-row]')?.getAttribute('data-id');
      const id = focused ?? deadLetters.selectedId.value;
      if (id === null || id === undefined) return;
      e.preventDefault();
      // Shift+R: replay to another path.
      emit({ type: 'replay/shortcut', id, redirect: e.shiftKey });
    }
  };

  return (
    <div
      class="mr-root"
      data-theme={theme}
      data-session={imported ? 'imported' : 'live'}
      data-testid="devtools"
      tabIndex={0}
      aria-label="Mailroom DevTools"
      onKeyDown={onKeyDown}
    >
      <header class="mr-header">
        <nav class="mr-tabs" role="tablist">
          {TABS.map((t) => (
            <button
              key={t.view}
              role="tab"
              aria-selected={view === t.view}
              class={view === t.view ? 'mr-on' : ''}
              data-testid={`tab-${t.view}`}
              onClick={() => emit({ type: 'view', view: t.view })}
            >
              {t.label}
              {t.view === 'dead-letters' && deadLetters.entries.value.length > 0 && (
                <span class="mr-count" data-testid="tab-dead-letters-count">{deadLetters.entries.value.length}</span>
              )}
            </button>
          ))}
        </nav>
        <div class="mr-header-tools">
          <label class="mr-muted" title="Sampling rate">
            <select
              aria-label="Sampling rate"
              data-testid="sample-rate"
              value={String(ui.sampleHz.value)}
              onChange={(e) => emit({ type: 'sample-rate', hz: Number((e.currentTarget as HTMLSelectElement).value) })}
            >
              {SAMPLE_RATES.map((hz) => (
                <option key={hz} value={String(hz)}>
                  {hz} Hz
                </option>
              ))}
            </select>
          </label>
          <button
            class="mr-btn"
            data-testid="pause"
            title={ui.paused.value ? 'Resume sampling' : 'Pause sampling'}
            onClick={() => emit({ type: 'pause', paused: !ui.paused.value })}
          >
            <Icon name={ui.paused.value ? 'resume' : 'pause'} />
            {ui.paused.value ? 'resume' : 'pause'}
          </button>
          <button class="mr-btn" data-testid="export" title="Export the filtered views as JSON" onClick={onExport}>
            <Icon name="export" />
            export
          </button>
          <button class="mr-btn" data-testid="import" title="Open an export read-only" onClick={() => fileRef.current?.click()}>
            <Icon name="import" />
            import
          </button>
          <input
            ref={fileRef}
            type="file"
            accept="application/json,.json"
            hidden
            data-testid="import-file"
            onChange={async (e) => {
              const input = e.currentTarget as HTMLInputElement;
              const file = input.files?.[0];
              if (file) emit({ type: 'import', text: await file.text(), name: file.name });
              input.value = '';
            }}
          />
          <button
            class="mr-btn"
            data-testid="theme"
            title={`Theme: ${ui.theme.value}`}
            onClick={() => emit({ type: 'theme', theme: NEXT_THEME[ui.theme.value] })}
          >
            <Icon name={ui.theme.value === 'system' ? 'theme-auto' : ui.theme.value === 'dark' ? 'theme-dark' : 'theme-light'} />
            {THEME_LABEL[ui.theme.value]}
          </button>
        </div>
      </header>
      {imported && (
        <div class="mr-banner mr-banner-import" data-testid="imported-banner" role="status">
          <b>Imported session</b> {imported.name}, exported {new Date(imported.exportedAtMs).toLocaleString()} — read-only, shown apart
          from the live system (live data is set aside, not mixed in).
          <button class="mr-link" data-testid="back-to-live" onClick={() => emit({ type: 'live' })}>
            back to live
          </button>
        </div>
      )}
      {ui.error.value && (
        <div class="mr-banner mr-banner-bad" data-testid="sample-error">
          Sampling failed: {ui.error.value}
        </div>
      )}
      <main class="mr-main">
        {view === 'mailboxes' && <MailboxesView store={store} />}
        {view === 'dead-letters' && otherStreams && <OtherStreamsView model={otherStreams} />}
        {view === 'dead-letters' && <DeadLettersView store={store} onCopy={onCopy} />}
        {view === 'metrics' && <MetricsView store={store} />}
      </main>
      {ui.notice.value && (
        // Floats over the panel: a notice never pushes the list down under the pointer.
        <div class="mr-toast" data-testid="notice" role="status">
          {ui.notice.value}
          <button class="mr-link" data-testid="notice-dismiss" onClick={() => emit({ type: 'dismiss-notice' })} aria-label="Dismiss notice" title="Dismiss">
            <Icon name="close" />
          </button>
        </div>
      )}
      <ReplayDialog store={store} />
      <BulkDialog store={store} />
      <footer class="mr-cost" data-testid="panel-cost" title="Time the panel spent in its last sample">
        {ui.paused.value ? 'paused' : ui.hidden.value ? 'hidden, not sampling' : `${ui.sampleHz.value} Hz`} · sample{' '}
        {ui.sampleCostMs.value.toFixed(1)} ms
      </footer>
    </div>
  );
}
