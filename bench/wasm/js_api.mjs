// The JS API in Node against XState 5, the JS actor library most people use.
// Every measurement runs in a fresh child process (no JIT or heap state
// carried over); Mailroom and XState children alternate, and each row is the
// median of the repetitions. Writes { rows } (JSON) to stdout for
// bench/report.mjs; progress goes to stderr.
//   node bench/wasm/js_api.mjs [--quick] [--cpu] [--only=name,name]
// --cpu times each run by the child's CPU time instead of the wall clock (for
// a machine under load; the rows then say so).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { scenarios } from './js_api_scenarios.mjs';

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const cpu = args.includes('--cpu');
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',');
const reps = quick ? 3 : 5;

function child(scenario, runtime) {
  const out = execFileSync(process.execPath,
    ['--expose-gc', new URL('./js_api_child.mjs', import.meta.url).pathname, scenario, runtime, quick ? 'quick' : 'full', cpu ? 'cpu' : 'wall'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop());
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const rows = [];
for (const [name, spec] of Object.entries(scenarios)) {
  if (only && !only.includes(name)) continue;
  const runtimes = spec.xstate ? ['mailroom', 'xstate'] : ['mailroom'];
  const samples = { mailroom: [], xstate: [] };
  for (let r = 0; r < reps; r += 1) {
    // Alternate which runtime goes first, so drift on a shared machine evens out.
    const order = r % 2 === 0 ? runtimes : [...runtimes].reverse();
    for (const runtime of order) samples[runtime].push(child(name, runtime).value);
  }
  const value = median(samples.mailroom);
  const peer = spec.xstate ? median(samples.xstate) : null;
  process.stderr.write(`${name}: mailroom ${value.toPrecision(4)} ${spec.unit}` +
    (peer !== null ? `, xstate ${peer.toPrecision(4)}` : '') +
    `  (samples ${samples.mailroom.map((v) => v.toPrecision(3)).join(' ')})\n`);
  rows.push({
    name: `js ${spec.title}${cpu && spec.unit !== 'bytes' ? ' (CPU time)' : ''}`,
    unit: spec.unit,
    value,
    peerValue: peer ?? spec.target ?? null,
    peerName: peer !== null ? 'XState 5 (same script)' : (spec.target ? 'target' : '-'),
  });
}
// The priority actor at 100 k backlog against itself at 1 k (target: within 2x).
const suffix = cpu ? ' (CPU time)' : '';
const p1k = rows.find((r) => r.name === `js ${scenarios.priority_1k.title}${suffix}`);
const p100k = rows.find((r) => r.name === `js ${scenarios.priority_100k.title}${suffix}`);
if (p1k && p100k) {
  p100k.peerValue = p1k.value;
  p100k.peerName = 'same actor at 1 k backlog';
}
process.stdout.write(JSON.stringify({ self, rows }, null, 2) + '\n');
