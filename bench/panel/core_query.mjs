// node bench/panel/core_query.mjs — what the panel's filters cost in the core: deadLetters.list
// {recipient, text, limit: 500} (the panel's first page, TYPED_PREVIEW_MS aside) over the wasm
// core's DevTools session, on a memory queue of 100,000 letters shaped like the panel bench's
// (web/src/demo/benchLoad.ts: /user/orders/region-<i % 7>/order-<i>, customer user<i % 500>@example.com).
// Prints wall and process CPU per query, median of BENCH_REPEAT (default 5) runs each.
import { ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, openDevtoolsSession } from '../../wasm/js/index.js';

const LETTERS = Number(process.env.BENCH_LETTERS ?? 100_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const system = ActorSystem.create('bench', ActorSystemOptions.create().withDeadLetters(DeadLetterQueueOptions.create().withStore('memory').withMaxEntries(LETTERS)));
for (let i = 0; i < LETTERS; i++) {
  system.actorSelection(`/user/orders/region-${i % 7}/order-${i}`).tell({ order: i, customer: `user${i % 500}@example.com`, lines: [{ sku: `sku-${i % 97}`, qty: 1 + (i % 3) }] });
  if (i % 5000 === 4999) await new Promise((r) => setTimeout(r, 0));
}
while ((await system.deadLetterQueue.list({ limit: LETTERS })).length < LETTERS) await new Promise((r) => setTimeout(r, 10));
const session = openDevtoolsSession(system);
session.receive(JSON.stringify({ type: 'hello', protocol: 'mailroom-devtools', version: 1, client: 'bench' }));
let id = 0;
function ask(params) {
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
  const runs = Array.from({ length: REPEAT }, () => ask({ ...q, limit: 500 }));
  rows.push({ query: JSON.stringify(q), wallMs: +median(runs.map((r) => r.wall)).toFixed(1), cpuMs: +median(runs.map((r) => r.cpu)).toFixed(1), entries: runs[0].n, more: runs[0].more });
}
console.table(rows);
session.close();
await system.terminate();
