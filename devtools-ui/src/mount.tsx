// mountDevtools: the one call that docks the panel on a live system.
import { render } from 'preact';
import { App } from './components/App';
import { createStore, type PanelStore } from './store';
import type { ThemeChoice } from './store/ui';
import { createSampler, type SamplerEnv } from './sampler';
import { prepareSearchWhenIdle } from './searchPrep';
import { createSystemSource, type SystemSource } from './source/systemSource';
import { isProtocolSource, type ProtocolSource } from './source/protocolSource';
import { createOtherStreams } from './store/otherStreams';
import { effect } from '@preact/signals';
import { PANEL_CSS } from './styles';
import { persistPrefs } from './store/prefs';
import { persistAttempts } from './store/attemptLog';
import type { InspectableSystem } from './types';

export interface MountOptions {
  /** Replay and redirect stay disabled unless this is true. */
  allowReplay?: boolean;
  /** The runtime's DeadLetter class: new letters then refresh the list at once. */
  deadLetterType?: unknown;
  sampleHz?: number;
  theme?: ThemeChoice;
  /** Timers and frames; tests inject their own. */
  env?: SamplerEnv;
  /** Where theme, tab, filters and a persistent queue's attempt history are kept across reloads (default localStorage; null: nowhere). */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** The page's other process connections (one node each): a letter of another stream in a shared store replays through its owner's. */
  peers?: () => readonly ProtocolSource[];
}

export interface DevtoolsHandle {
  store: PanelStore;
  /** Takes one sample now and applies it (for tests and after host actions). */
  refresh(): Promise<void>;
  /** Resolves once every replay and sample started so far has been applied. */
  settled(): Promise<void>;
  /** The host tells the panel whether it is shown (e.g. a closed drawer). */
  setVisible(visible: boolean): void;
  destroy(): void;
}

function defaultStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // a sandboxed frame throws on access
  }
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    const ok = typeof document.execCommand === 'function' && document.execCommand('copy');
    area.remove();
    return ok;
  }
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A ready source (e.g. createProtocolSource over a WebSocket) rather than a live system. */
function isSource(x: InspectableSystem | SystemSource): x is SystemSource {
  return typeof (x as SystemSource).sample === 'function';
}

export function mountDevtools(container: HTMLElement, system: InspectableSystem | SystemSource, options: MountOptions = {}): DevtoolsHandle {
  const store = createStore({ allowReplay: options.allowReplay === true });
  if (options.sampleHz) store.ui.sampleHz.value = options.sampleHz;
  if (options.theme) store.ui.theme.value = options.theme;
  const source = isSource(system) ? system : createSystemSource(system, { deadLetterType: options.deadLetterType });
  const storage = options.storage !== undefined ? options.storage : defaultStorage();
  // Whose history: the system's name (over the protocol, from its welcome).
  const systemName = (): string | null =>
    isProtocolSource(source) ? (source.welcome.value?.system ?? null) : isSource(system) ? null : (system.name ?? 'default');
  const stopAttempts = persistAttempts(store, storage, systemName);
  // Over the protocol the process says whether it takes writes; the host can only narrow that.
  const offWrites = isProtocolSource(source)
    ? effect(() => {
        const welcome = source.welcome.value;
        if (welcome) store.ui.allowReplay.value = welcome.writes && options.allowReplay !== false;
        // The read-only text names the switch that is off: the process's (the source says which), or the host's.
        store.ui.writesSwitch.value = welcome?.writes ? 'mount the panel without { allowReplay: false }' : source.writesSwitch;
      })
    : () => {};
  const stopPrefs = persistPrefs(store, storage);
  const sampler = createSampler(store, source, options.env);
  const stopSearchPrep = prepareSearchWhenIdle(store);

  const style = document.createElement('style');
  style.textContent = PANEL_CSS;
  const host = document.createElement('div');
  host.className = 'mr-host';
  host.style.height = '100%';
  container.append(style, host);

  let pageHidden = typeof document.hidden === 'boolean' ? document.hidden : false;
  let hostVisible = true;
  let shown = true;
  const update = () => sampler.setHidden(pageHidden || !hostVisible || !shown);
  const onVisibility = () => {
    pageHidden = document.hidden;
    update();
  };
  document.addEventListener('visibilitychange', onVisibility);
  let observer: IntersectionObserver | null = null;
  if (typeof IntersectionObserver === 'function') {
    observer = new IntersectionObserver((records) => {
      hostVisible = records[records.length - 1]?.isIntersecting ?? true;
      update();
    });
    observer.observe(host);
  }

  const onCopy = (text: string, what: string) => {
    void copyText(text).then((ok) => {
      store.ui.notice.value = ok ? `Copied ${what} (${text.length.toLocaleString('en-US')} chars)` : `Could not copy ${what}`;
    });
  };
  const onExport = () => {
    const file = store.exportView();
    download(`mailroom-devtools-${new Date(file.exportedAtMs).toISOString().replace(/[:.]/g, '-')}.json`, JSON.stringify(file, null, 2));
  };

  // Other processes' streams of a shared store (a DevTools connection only).
  const otherStreams = isProtocolSource(source) ? createOtherStreams(source, options.peers) : undefined;
  render(<App store={store} onCopy={onCopy} onExport={onExport} otherStreams={otherStreams} />, host);
  void sampler.tick();

  return {
    store,
    refresh: () => sampler.tick(),
    settled: () => sampler.whenIdle(),
    setVisible(visible) {
      shown = visible;
      update();
    },
    destroy() {
      offWrites();
      otherStreams?.dispose();
      sampler.dispose();
      stopSearchPrep();
      stopPrefs();
      stopAttempts();
      source.dispose();
      observer?.disconnect();
      document.removeEventListener('visibilitychange', onVisibility);
      render(null, host);
      host.remove();
      style.remove();
    },
  };
}
