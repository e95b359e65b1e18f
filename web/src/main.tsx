// The live demo: a Mailroom system in wasm with the seeds' scenarios, and the
// DevTools panel docked in a drawer with replay enabled.
import { render } from 'preact';
import { ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, openDevtoolsSession } from 'mailroom';
import { createProtocolSource, loopbackTransport, mountDevtools } from '../../devtools-ui/src';
import { Controls } from './Controls';
import { createScenarios } from './demo/scenarios';
import { createDrawer, rememberedDock, type Dock } from './drawer';
import { demoMaxEntries, loadForBench, type StopLoad } from './demo/benchLoad';
import './demo.css';

const params = new URLSearchParams(location.search);
const system = ActorSystem.create(
  'demo',
  ActorSystemOptions.create().withDeadLetters(
    // persistent: the journal lives in IndexedDB, so dead letters survive a reload.
    DeadLetterQueueOptions.create().withStore('persistent').withMaxEntries(demoMaxEntries(params)).withMaxReplays(3),
  ),
);
const scenarios = createScenarios(system);
// ?idle starts with every producer off (the end-to-end tests drive it by hand).
if (!params.has('idle')) for (const s of scenarios) if (s.rate && s.id !== 'worker') s.setEnabled(true);

let restarting = false;
// The ?bench load's stop: it must be quiet before terminate() stops its actors.
let stopLoad: StopLoad = async () => {};
async function restart() {
  if (restarting) return;
  restarting = true;
  for (const s of scenarios) s.setEnabled(false);
  await stopLoad();
  // An ordered shutdown completes the journal; then a fresh page reads it back.
  await system.terminate();
  location.reload();
}

render(<Controls scenarios={scenarios} systemName={system.name} onRestart={restart} />, document.getElementById('app')!);

const drawer = createDrawer(document.getElementById('drawer')!, 'Mailroom DevTools', (params.get('dock') as Dock | null) ?? rememberedDock('bottom'));
// The panel speaks the DevTools protocol to this page's system through the loopback:
// the frames a native process sends over its WebSocket, from the same core module.
const source = createProtocolSource(loopbackTransport(openDevtoolsSession(system, { allowWrites: true })), { intervalMs: 250 });
const devtools = mountDevtools(drawer.body, source, { allowReplay: true });
drawer.onVisibility((visible) => devtools.setVisible(visible));

addEventListener('pagehide', () => {
  if (!restarting) void stopLoad().then(() => system.terminate());
});

// For the end-to-end tests and the curious console user.
Object.assign(window, { __mailroomDemo: { system, devtools, scenarios, restart } });

// ?bench=N: the panel benchmark's load (bench/panel/run.mjs); __mailroomBenchReady when set up
// (with &letters=M the queue holds M letters instead of the demo's 5,000). The load starts once
// the panel is subscribed; the fill runs in time slices, so the page keeps painting.
if (params.has('bench')) {
  const subscribed = new Promise<void>((resolve) => {
    const poll = setInterval(() => source.welcome.value && (clearInterval(poll), resolve()), 20);
  });
  void subscribed
    .then(() => loadForBench(system, Number(params.get('bench')) || 1000, (stop) => (stopLoad = stop)))
    .then(() => Object.assign(window, { __mailroomBenchReady: true }));
}
