// node bench/panel/core_query.mjs — what the panel's filters cost in the core: deadLetters.list
// {recipient, text, limit: 500} (the panel's first page, TYPED_PREVIEW_MS aside) over the wasm
// core's DevTools session, on a memory queue of 100,000 letters shaped like the panel bench's
// (web/src/demo/benchLoad.ts: /user/orders/region-<i % 7>/order-<i>, customer user<i % 500>@example.com).
// Prints wall and process CPU per query: its first ask in a fresh session (cold: the session has
// searched nothing yet) and the median of BENCH_REPEAT (default 5) asks again in one session (warm:
// as the panel asks again when letters arrive, or a longer text typed). BENCH_WASM=<dir> loads
// another build's wasm/js (a before/after in one script).
const wasmJs = process.env.BENCH_WASM ? new URL(`file://${process.env.BENCH_WASM.replace(/\/$/, '')}/index.js`) : new URL('../../wasm/js/index.js', import.meta.url);
const { ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, openDevtoolsSession } = await import(wasmJs.href);

const LETTERS = Number(process.env.BENCH_LETTERS ?? 100_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const system = ActorSystem.create('bench', ActorSystemOptions.create().withDeadLetters(DeadLetterQueueOptions.create().withStore('memory').withMaxEntries(LETTERS)));
for (let i = 0; i < LETTERS; i++) {
  system.actorSelection(`/user/orders/region-${i % 7}/order-${i}`).tell({ order: i, customer: `user${i % 500}@example.com`, lines: [{ sku: `sku-${i % 97}`, qty: 1 + (i % 3) }] });
  if (i % 5000 === 4999) await new Promise((r) => setTimeout(r, 0));
}
while ((await system.deadLetterQueue.list({ limit: LETTERS })).length < LETTERS) await new Promise((r) => setTimeout(r, 10));
let id = 0;
function open() {
  const session = openDevtoolsSession(system);
  session.receive(JSON.stringify({ type: 'hello', protocol: 'mailroom-devtools', version: 1, client: 'bench' }));
  return session;
}
function ask(session, params) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const out = session.receive(JSON.stringify({ type: 'request', id: String(++id), method: 'deadLetters.list', params }));
  const cpu = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  const frame = JSON.parse(out[0]);
  if (frame.type !== 'response') throw new Error(JSON.stringify(frame).slice(0, 200));
  return { wall, cpu: (cpu.user + cpu.system) / 1000, n: frame.result.entries.length, more: frame.result.nextCursor !== null };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const queries = [
  { recipient: '/user/orders' },
  { recipient: '/user/orders/region-3' },
  { recipient: '/user/orders/region-3/order-10' },
  { recipient: '/user/nobody' },
  { text: 'user42@example' },
  { text: 'sku-5' },
  { text: 'no-such-text' },
  { text: 'order' },
  { recipient: '/user/orders/region-5', text: 'user7@example' },
];
const rows = [];
for (const q of queries) {
  const cold = open();
  const first = ask(cold, { ...q, limit: 500 });
  const runs = Array.from({ length: REPEAT }, () => ask(cold, { ...q, limit: 500 }));
  cold.close();
  rows.push({
    query: JSON.stringify(q),
    coldCpuMs: +first.cpu.toFixed(1),
    coldWallMs: +first.wall.toFixed(1),
    warmCpuMs: +median(runs.map((r) => r.cpu)).toFixed(1),
    warmWallMs: +median(runs.map((r) => r.wall)).toFixed(1),
    entries: runs[0].n,
    more: runs[0].more,
  });
}
console.table(rows);
await system.terminate();
