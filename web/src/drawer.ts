// A DevTools-style drawer: docked bottom or right, resizable by its edge,
// or full page; closing it tells the panel to stop sampling. Its buttons use
// the panel's inline SVG icons, which need no font.
import { ICONS, ICON_SVG_ATTRS, pathAttrs, type IconName } from '../../devtools-ui/src/components/icons';

export type Dock = 'bottom' | 'right' | 'full';

const DOCK_KEY = 'mailroom-demo/dock';
const DOCKS: readonly Dock[] = ['bottom', 'right', 'full'];

/** The dock chosen last time (checked: anything else stored is ignored), else `fallback`. */
export function rememberedDock(fallback: Dock): Dock {
  try {
    const stored = localStorage.getItem(DOCK_KEY);
    return DOCKS.includes(stored as Dock) ? (stored as Dock) : fallback;
  } catch {
    return fallback;
  }
}

function rememberDock(dock: Dock) {
  try {
    localStorage.setItem(DOCK_KEY, dock);
  } catch {
    // storage refused: the dock is only a convenience
  }
}

export interface Drawer {
  body: HTMLElement;
  setDock(dock: Dock): void;
  onVisibility(fn: (visible: boolean) => void): void;
}

const CSS = `
.dr{position:fixed;z-index:50;background:#fff;box-shadow:0 0 0 1px #d0d7de,0 -4px 16px rgba(0,0,0,.08);display:flex;flex-direction:column}
.dr[data-dock=bottom]{left:0;right:0;bottom:0;height:var(--dr-size,46vh)}
.dr[data-dock=right]{top:0;right:0;bottom:0;width:var(--dr-size,52vw)}
.dr[data-dock=full]{inset:0}
.dr[data-open=false]{height:30px!important;top:auto;left:0;right:0;bottom:0;width:auto}
.dr-bar{display:flex;align-items:center;gap:4px;padding:2px 8px;background:#f6f8fa;border-bottom:1px solid #d0d7de;font:12px system-ui,sans-serif;user-select:none}
.dr-bar b{margin-right:auto}
.dr-bar button{font:inherit;color:inherit;background:none;border:1px solid transparent;border-radius:4px;padding:1px 6px;cursor:pointer;display:inline-flex;align-items:center;gap:4px}
.dr-bar svg{flex:none;display:block}
.dr-bar button[aria-pressed=true]{border-color:#d0d7de;background:#fff}
.dr-grip{position:absolute;background:transparent;z-index:2}
.dr[data-dock=bottom] .dr-grip{left:0;right:0;top:-3px;height:6px;cursor:ns-resize}
.dr[data-dock=right] .dr-grip{top:0;bottom:0;left:-3px;width:6px;cursor:ew-resize}
.dr[data-dock=full] .dr-grip,.dr[data-open=false] .dr-grip{display:none}
.dr-body{flex:1;min-height:0}
.dr[data-open=false] .dr-body{display:none}
@media (prefers-color-scheme: dark){.dr{background:#1e1f22}.dr-bar{background:#2b2d31;color:#e6e6e6;border-color:#3a3c42}.dr-bar button{color:#e6e6e6}.dr-bar button[aria-pressed=true]{background:#1e1f22;border-color:#3a3c42}}
`;

const SVG_NS = 'http://www.w3.org/2000/svg';

function icon(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  for (const [k, v] of Object.entries(ICON_SVG_ATTRS)) svg.setAttribute(k, v);
  for (const p of ICONS[name]) {
    const path = document.createElementNS(SVG_NS, 'path');
    for (const [k, v] of Object.entries(pathAttrs(p))) path.setAttribute(k, v);
    svg.appendChild(path);
  }
  return svg;
}

export function createDrawer(host: HTMLElement, title: string, initial: Dock = 'bottom'): Drawer {
  const style = document.createElement('style');
  style.textContent = CSS;
  document.head.appendChild(style);
  const root = document.createElement('div');
  root.className = 'dr';
  root.dataset.testid = 'drawer';
  root.setAttribute('data-testid', 'drawer');
  const grip = document.createElement('div');
  grip.className = 'dr-grip';
  const bar = document.createElement('div');
  bar.className = 'dr-bar';
  const label = document.createElement('b');
  label.textContent = title;
  bar.appendChild(label);
  const body = document.createElement('div');
  body.className = 'dr-body';
  root.append(grip, bar, body);
  host.appendChild(root);

  const listeners = new Set<(visible: boolean) => void>();
  let open = true;
  const buttons = new Map<string, HTMLButtonElement>();
  const setLabel = (b: HTMLButtonElement, name: IconName, text: string) => b.replaceChildren(icon(name), text);
  const button = (id: string, name: IconName, text: string, titleText: string, onClick: () => void) => {
    const b = document.createElement('button');
    b.type = 'button';
    setLabel(b, name, text);
    b.title = titleText;
    b.setAttribute('data-testid', `drawer-${id}`);
    b.addEventListener('click', onClick);
    bar.appendChild(b);
    buttons.set(id, b);
  };

  const setDock = (dock: Dock) => {
    root.dataset.dock = dock;
    for (const d of ['bottom', 'right', 'full']) buttons.get(d)?.setAttribute('aria-pressed', String(d === dock));
    document.body.style.paddingBottom = dock === 'bottom' && open ? 'var(--dr-size,46vh)' : open ? '0' : '30px';
    document.body.style.paddingRight = dock === 'right' && open ? 'var(--dr-size,52vw)' : '0';
  };
  const setOpen = (next: boolean) => {
    open = next;
    root.dataset.open = String(open);
    setLabel(buttons.get('toggle')!, open ? 'hide' : 'show', open ? 'hide' : 'show');
    setDock(root.dataset.dock as Dock);
    for (const fn of listeners) fn(open);
  };

  const choose = (dock: Dock) => {
    setDock(dock);
    rememberDock(dock);
  };
  button('bottom', 'dock-bottom', 'bottom', 'Dock to the bottom', () => choose('bottom'));
  button('right', 'dock-right', 'right', 'Dock to the right', () => choose('right'));
  button('full', 'full-page', 'full page', 'Open full page', () => choose('full'));
  button('toggle', 'hide', 'hide', 'Hide or show the panel', () => setOpen(!open));

  grip.addEventListener('pointerdown', (down) => {
    down.preventDefault();
    grip.setPointerCapture(down.pointerId);
    const move = (e: PointerEvent) => {
      const size = root.dataset.dock === 'right' ? window.innerWidth - e.clientX : window.innerHeight - e.clientY;
      const clamped = Math.max(120, Math.min(size, (root.dataset.dock === 'right' ? window.innerWidth : window.innerHeight) - 60));
      document.documentElement.style.setProperty('--dr-size', `${clamped}px`);
    };
    const up = () => {
      grip.removeEventListener('pointermove', move);
      grip.removeEventListener('pointerup', up);
    };
    grip.addEventListener('pointermove', move);
    grip.addEventListener('pointerup', up);
  });

  root.dataset.open = 'true';
  setDock(initial);
  return {
    body,
    setDock,
    onVisibility: (fn) => void listeners.add(fn),
  };
}
