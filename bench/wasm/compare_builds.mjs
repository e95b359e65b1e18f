// Two builds of the JS API against each other and XState 5, on one workload of
// bench/wasm/js_api_child.mjs: before/after children alternate with XState in
// fresh processes, and each column is the median of the repetitions.
//   node bench/wasm/compare_builds.mjs <before-tree> <scenario> [reps=5] [cpu|wall] [quick|full] [noxstate]
// <before-tree>: a checkout holding package.json, wasm/js, wasm/dist and bench/wasm of
// the other build (e.g. `git archive <rev> wasm/js bench/wasm package.json | tar -x -C dir`,
// its wasm/dist copied in, node_modules linked); "after" is this checkout.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [before, scenario, repsArg = '5', clock = 'cpu', size = 'full', noXState] = process.argv.slice(2);
if (!before || !scenario) {
  process.stderr.write('usage: compare_builds.mjs <before-tree> <scenario> [reps] [cpu|wall] [quick|full] [noxstate]\n');
  process.exit(2);
}
const after = fileURLToPath(new URL('../..', import.meta.url));
const reps = Number(repsArg);
const child = (tree, runtime) => JSON.parse(execFileSync(process.execPath,
  ['--expose-gc', `${tree}/bench/wasm/js_api_child.mjs`, scenario, runtime, size, clock],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n').pop()).value;
const columns = noXState ? ['before', 'after'] : ['before', 'after', 'xstate'];
const samples = Object.fromEntries(columns.map((c) => [c, []]));
for (let r = 0; r < reps; r += 1) {
  // Alternate the order, so drift on a shared machine evens out.
  for (const c of r % 2 ? [...columns].reverse() : columns) {
    samples[c].push(c === 'xstate' ? child(after, 'xstate') : child(c === 'before' ? before : after, 'mailroom'));
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const out = { scenario, clock, reps };
for (const c of columns) out[c] = median(samples[c]);
if (!noXState) {
  out.beforeToXState = out.before / out.xstate;
  out.afterToXState = out.after / out.xstate;
}
process.stdout.write(`${JSON.stringify(out)}\n`);
