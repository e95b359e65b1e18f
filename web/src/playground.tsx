// The panel on a fake system: no wasm needed. Used to develop the panel, by the
// panel-safety browser tests (hostile payloads) and by `npm run bench:panel`.
//   ?actors=1000   live actors      ?letters=100000   preloaded dead letters
//   ?hostile       add the hostile payloads            ?still   no simulated load
import { mountDevtools } from '../../devtools-ui/src';
import { FakeSystem } from '../../devtools-ui/src/testing/fakeSystem';
import { createDrawer, rememberedDock, type Dock } from './drawer';
import './demo.css';

const params = new URLSearchParams(location.search);
const actorCount = Number(params.get('actors') ?? 40);
const letterCount = Number(params.get('letters') ?? 200);
const system = new FakeSystem('playground', { store: 'memory', maxEntries: Math.max(5_000, letterCount + 1_000), maxReplays: 3 });

const KINDS = [
  { kind: 'bounded', capacity: 200, overflow: 'drop-head', className: 'SensorSink' },
  { kind: 'bounded', capacity: 20, overflow: 'reject', className: 'Checkout' },
  { kind: 'priority', capacity: 100, overflow: 'drop-lowest-priority', className: 'Triage' },
  { kind: 'bounded', capacity: 30, overflow: 'drop-new', className: 'BoundedWorker' },
  { kind: 'unbounded', capacity: null, overflow: null, className: 'Ledger' },
] as const;

const paths: string[] = [];
for (let i = 0; i < actorCount; i++) {
  const k = KINDS[i % KINDS.length];
  const group = ['orders', 'sensors', 'triage', 'workers', 'ledger'][i % 5];
  const path = i < 5 ? `/user/${group}` : `/user/${group}/w-${String(i).padStart(5, '0')}`;
  paths.push(path);
  system.actor(path, { className: k.className, mailboxKind: k.kind, capacity: k.capacity, overflow: k.overflow, deadLetterDrops: k.overflow === 'drop-new' });
}
system.actor('/user/checkout-v2', { className: 'CheckoutV2' });

const t0 = Date.now() - 30 * 60_000;
for (let i = 0; i < letterCount; i++) {
  system.deadLetter(paths[i % paths.length] ?? '/user/orders', { kind: i % 3 === 0 ? 'order' : 'reading', seq: i, customer: { id: `c-${i % 977}`, email: `user${i % 977}@example.com` }, items: [i, i + 1] }, {
    senderPath: i % 4 === 0 ? '/user/client' : null,
    ...(['stopped', 'no-recipient', 'unhandled', 'dropped', 'stopped'] as const)[i % 5] === 'dropped'
      ? { cause: 'dropped', dropPolicy: 'drop-new' }
      : { cause: (['stopped', 'no-recipient', 'unhandled', 'dropped', 'stopped'] as const)[i % 5] },
    timestampMs: t0 + Math.floor((i / Math.max(1, letterCount)) * 30 * 60_000),
  });
}

if (params.has('hostile')) {
  system.deadLetter('/user/archive', { kind: 'comment', html: '<img src=x onerror=alert(1)>', script: '<script>window.__pwned=1</script>' });
  system.deadLetter('/user/archive', { kind: 'blob', body: 'A'.repeat(1_000_000) });
  let deep: unknown = { bottom: true };
  for (let i = 0; i < 10_000; i++) deep = { level: deep };
  system.deadLetter('/user/archive', deep);
  const cyclic: Record<string, unknown> = { kind: 'cyclic', name: 'loop' };
  cyclic.self = cyclic;
  cyclic.list = [cyclic, { back: cyclic }];
  system.deadLetter('/user/archive', cyclic);
  system.deadLetter('/user/archive', { kind: 'big-array', rows: Array.from({ length: 100_000 }, (_, i) => i) });
  system.deadLetter('/user/archive', undefined, { degraded: { className: 'Promise', reason: 'promises cannot be journaled' } });
}

// Simulated load: depths random-walk, full bounded mailboxes shed, some letters arrive.
if (!params.has('still')) {
  const state = system.inspect();
  let n = 0;
  setInterval(() => {
    n++;
    state.forEach((a, i) => {
      const wave = Math.sin((n + i * 7) / 15) * 0.6 + 0.5;
      const target = Math.round((a.capacity ?? 400) * Math.max(0, wave + (i % 3) * 0.2));
      const shed = a.capacity !== null && target > a.capacity ? target - a.capacity : 0;
      a.userDepth = a.capacity === null ? target : Math.min(a.capacity, target);
      if (a.overflow !== 'reject') a.dropped += Math.ceil(shed / 10);
      a.processed += 5 + (i % 7);
      system.actor(a.path, a);
    });
    if (n % 5 === 0) system.deadLetter('/user/orders', { kind: 'order', orderId: `o-${n}`, amount: n * 1.5 }, { senderPath: '/user/client' });
  }, 250);
}

const drawer = createDrawer(document.getElementById('drawer')!, 'Mailroom DevTools — playground', (params.get('dock') as Dock | null) ?? rememberedDock('full'));
const devtools = mountDevtools(drawer.body, system, { allowReplay: !params.has('noreplay'), deadLetterType: 'DeadLetter' });
drawer.onVisibility((visible) => devtools.setVisible(visible));
Object.assign(window, { __playground: { system, devtools } });
