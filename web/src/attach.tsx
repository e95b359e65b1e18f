// The panel attached to native processes over the DevTools protocol: served by
// a process's DevTools server at /?token=..., it connects back to /api/ws with
// the same token. More processes: &also=<ws url with its token> (repeatable;
// that server must list this page's origin in allowed-origins). Each process
// is its own node with its own panel; none speaks for another.
import { effect } from '@preact/signals';
import { createProtocolSource, mountDevtools, webSocketTransport, type ProtocolSource } from '../../devtools-ui/src';

const params = new URLSearchParams(location.search);
const token = params.get('token') ?? '';
const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
const endpoints = [`${scheme}//${location.host}/api/ws?token=${encodeURIComponent(token)}`, ...params.getAll('also')];

const nav = document.getElementById('nodes')!;
const panels = document.getElementById('panels')!;
Object.assign(document.body.style, { margin: '0', height: '100vh', display: 'flex', flexDirection: 'column' });
Object.assign(panels.style, { flex: '1', minHeight: '0', position: 'relative' });
Object.assign(nav.style, { display: 'flex', gap: '4px', padding: '4px', font: '13px system-ui, sans-serif' });

const sources: ProtocolSource[] = endpoints.map((url) => createProtocolSource(webSocketTransport(url), { intervalMs: 250 }));
const nodes = endpoints.map((_url, i) => {
  const source = sources[i]!;
  const container = document.createElement('div');
  Object.assign(container.style, { position: 'absolute', inset: '0', display: i === 0 ? 'block' : 'none' });
  panels.append(container);
  // A shared store's letters of another process replay through that process's connection.
  const handle = mountDevtools(container, source, { peers: () => sources });
  const button = document.createElement('button');
  button.type = 'button';
  button.dataset.testid = `node-${i}`;
  nav.append(button);
  effect(() => {
    const welcome = source.welcome.value;
    const status = source.status.value;
    button.textContent = `${welcome?.node ?? `process ${i + 1}`} · ${welcome ? (welcome.writes ? 'read-write' : 'read-only') : status}`;
    button.dataset.status = welcome ? 'attached' : status;
  });
  return { container, handle, button };
});

function show(index: number) {
  nodes.forEach((node, i) => {
    node.container.style.display = i === index ? 'block' : 'none';
    node.handle.setVisible(i === index);
    node.button.setAttribute('aria-pressed', String(i === index));
  });
}
nodes.forEach((node, i) => node.button.addEventListener('click', () => show(i)));
show(0);
