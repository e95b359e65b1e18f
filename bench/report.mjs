// Turns Google Benchmark JSON (native) and bench/wasm/run.mjs output into
// bench/results/latest.json: [{name, unit, mailroom, peer, peerName, ratio}],
// ratio > 1 meaning Mailroom is better whichever way the unit goes.
//   node bench/report.mjs native.json st-native.json st-wasm.json [js.json size.json] > latest.json
//   node bench/report.mjs --table latest.json
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args[0] === '--table') {
  const rows = JSON.parse(readFileSync(args[1], 'utf8'));
  const fmt = (v) => (typeof v === 'number' ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)) : String(v ?? '-'));
  console.log(['benchmark', 'unit', 'mailroom', 'peer', 'peer name', 'ratio'].join('\t'));
  for (const r of rows) console.log([r.name, r.unit, fmt(r.mailroom), fmt(r.peer), r.peerName, fmt(r.ratio)].join('\t'));
  process.exit(0);
}

const native = JSON.parse(readFileSync(args[0], 'utf8'));
const readRows = (file) => (file && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).rows : []);
const stNative = new Map(readRows(args[1]).map((r) => [r.name, r]));
const stWasm = readRows(args[2]);
const jsRows = args.slice(3).flatMap((file) => readRows(file));  // js_api.mjs, size.mjs

const toNs = { ns: 1, us: 1e3, ms: 1e6, s: 1e9 };
const median = new Map();
for (const b of native.benchmarks) {
  if (b.aggregate_name && b.aggregate_name !== 'median') continue;
  const name = (b.run_name ?? b.name).replace(/\/iterations:\d+/, '').replace(/\/real_time$/, '');
  median.set(name, { ns: b.real_time * toNs[b.time_unit], counters: b });
}
const ns = (name) => median.get(name)?.ns;
const rows = [];
const lowerIsBetter = (name, unit, mailroom, peer, peerName) =>
  rows.push({ name, unit, mailroom, peer, peerName, ratio: mailroom && peer ? peer / mailroom : null });
const higherIsBetter = (name, unit, mailroom, peer, peerName) =>
  rows.push({ name, unit, mailroom, peer, peerName, ratio: mailroom && peer ? mailroom / peer : null });

const count = (name) => median.get(name)?.counters?.msgs_per_s;

for (const w of [1, 2]) {
  higherIsBetter(`w1 one sender -> one actor, ${w} worker(s)`, 'msgs/s',
    count(`w1_one_to_one/workers:${w}/mailroom`), count(`w1_one_to_one/workers:${w}/caf`), 'CAF 0.17.6');
}
const best = Math.max(count('w1_one_to_one/workers:1/mailroom') ?? 0, count('w1_one_to_one/workers:2/mailroom') ?? 0);
higherIsBetter('w1 fraction of a bare SPSC lock-free handoff', 'msgs/s', best || null,
  count('w1_one_to_one/reference_spsc'), 'SPSC ring (physical reference)');
higherIsBetter('w2 ping-pong, 2 workers', 'msgs/s',
  count('w2_ping_pong/workers:2/mailroom'), count('w2_ping_pong/workers:2/caf'), 'CAF 0.17.6');
const trips = (name) => (count(name) ? 2e9 / count(name) : null); // ns per round trip
lowerIsBetter('w2 ping-pong mean round trip', 'ns', trips('w2_ping_pong/workers:2/mailroom'),
  trips('w2_ping_pong/workers:2/caf'), 'CAF 0.17.6');
higherIsBetter('w3 four senders -> one actor, 2 workers', 'msgs/s',
  count('w3_four_to_one/workers:2/mailroom'), count('w3_four_to_one/workers:2/caf'), 'CAF 0.17.6');
// The same workloads while two hashing threads keep both cores busy.
for (const w of [1, 2]) {
  higherIsBetter(`w1 one sender -> one actor under load, ${w} worker(s)`, 'msgs/s',
    count(`w1_loaded/workers:${w}/mailroom`), count(`w1_loaded/workers:${w}/caf`), 'CAF 0.17.6');
}
higherIsBetter('w3 four senders -> one actor under load, 2 workers', 'msgs/s',
  count('w3_loaded/workers:2/mailroom'), count('w3_loaded/workers:2/caf'), 'CAF 0.17.6');
for (const kind of ['unbounded', 'bounded-drop-head', 'bounded-drop-new', 'bounded-reject', 'priority']) {
  lowerIsBetter(`w4 enqueue+dequeue, ${kind}`, 'ns', ns(`w4_mailbox_pair/${kind}`),
    ns('w4_mailbox_pair/unbounded'), 'unbounded mailbox');
}
// Each backlog series against its own smallest backlog: the size cliff (or its absence).
const backlogSeries = [
  ['w4_priority_backlog', 'w4 priority enqueue+dequeue at backlog', 'priority at backlog'],
  ['w4_priority_random_backlog', 'w4 priority (a distinct random double each) at backlog', 'the same at backlog'],
  ['w4_priority_shedding_backlog', 'w4 priority with drop-lowest-priority, enqueue+dequeue at backlog', 'the same at backlog'],
  ['w4_priority_random_shedding_backlog', 'w4 priority with drop-lowest-priority (random doubles), enqueue+dequeue at backlog', 'the same at backlog'],
  ['w4_priority_shed_at_capacity', 'w4 priority shedding at capacity (enqueue that sheds + dequeue + enqueue), capacity', 'the same at capacity'],
  ['w4_priority_random_shed_at_capacity', 'w4 priority shedding at capacity (random doubles), capacity', 'the same at capacity'],
];
for (const [prefix, label, peerLabel] of backlogSeries) {
  const sizes = [...median.keys()].filter((n) => n.startsWith(`${prefix}/`))
    .map((n) => Number(n.split('/')[1])).sort((a, b) => a - b);
  for (const b of sizes) {
    lowerIsBetter(`${label} ${b}`, 'ns', ns(`${prefix}/${b}`), ns(`${prefix}/${sizes[0]}`),
      prefix === 'w4_priority_backlog' ? `${peerLabel} ${sizes[0]} (target ratio >= 0.5)` : `${peerLabel} ${sizes[0]}`);
  }
}
lowerIsBetter('w5 capture per letter, memory store', 'ns', ns('w5_capture/memory'), 1000, 'target 1 us');
lowerIsBetter('w5 capture per letter, persistent store', 'ns', ns('w5_capture/persistent'), ns('w5_capture/memory'), 'memory store');
lowerIsBetter('w5 persistent capture, 50 ms sync-within bound', 'ns', ns('w5_capture/persistent'), ns('w5_capture/persistent-unsynced'), 'no sync in the run (target ratio <= 1.10)');
lowerIsBetter('w5 list({recipient}) over 100,000 entries', 'ms', (ns('w5_list_recipient/100000') ?? 0) / 1e6 || null, 5, 'target 5 ms');
const bytes = median.get('memory/bytes_per_queued_envelope')?.counters?.bytes;
lowerIsBetter('memory per queued small envelope, native', 'bytes', bytes ?? null, null, '-');
// Peak RSS of workload 1, each runtime alone in a fresh process (scripts/bench.sh).
const rssFile = process.env.MAILROOM_RSS;
if (rssFile && existsSync(rssFile)) {
  const rss = new Map(readFileSync(rssFile, 'utf8').trim().split('\n').filter(Boolean)
    .map((line) => JSON.parse(line)).map((r) => [r.runtime, r]));
  const m = rss.get('mailroom'), c = rss.get('caf');
  lowerIsBetter(`w1 peak RSS, ${m?.messages ?? '?'} messages, 1 worker`, 'KiB',
    m?.peak_rss_kb ?? null, c?.peak_rss_kb ?? null, 'CAF 0.17.6');
}

// The DevTools server's idle cost: its rows carry their own peer (the same
// workload without the server, alternating in one process).
const idleFile = process.env.MAILROOM_DEVTOOLS_IDLE;
for (const r of idleFile && existsSync(idleFile) ? readRows(idleFile) : []) {
  higherIsBetter(r.name, r.unit, r.value, r.peerValue, r.peerName);
}

// w6: identical single-threaded C++ workloads, em++ in Node vs native.
for (const r of stWasm) {
  const n = stNative.get(r.name);
  const name = `w6 wasm/native: ${r.name.replace(/^st_/, '')}`;
  if (r.unit === 'msgs/s') higherIsBetter(name, r.unit, r.value, n?.value ?? null, 'same code, native');
  else lowerIsBetter(name, r.unit, r.value, n?.value ?? null, 'same code, native');
}
// The JS API (JS actors in Node) against the same workload in wasm C++.
// Rows of bench/wasm/js_api.mjs carry their own peer (XState 5 in the same script).
for (const r of jsRows) {
  const peer = r.peer ? stWasm.find((w) => w.name === r.peer) : null;
  const peerValue = r.peerValue !== undefined ? r.peerValue : (peer?.value ?? null);
  const peerName = r.peerName ?? (peer ? `wasm C++ (${r.peer})` : '-');
  if (r.unit === 'msgs/s') higherIsBetter(r.name, r.unit, r.value, peerValue, peerName);
  else lowerIsBetter(r.name, r.unit, r.value, peerValue, peerName);
}
process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
