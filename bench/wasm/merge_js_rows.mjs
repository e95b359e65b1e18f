// Puts the rows of one bench/wasm/js_api.mjs run into bench/results/latest.json
// (replacing the JS rows already there, keeping every other row), in the form
// bench/report.mjs gives them, for a JS-only run:
//   node bench/wasm/js_api.mjs [--cpu] > js.json && node bench/wasm/merge_js_rows.mjs js.json
import { readFileSync, writeFileSync } from 'node:fs';

const [input, target = new URL('../results/latest.json', import.meta.url).pathname] = process.argv.slice(2);
if (!input) throw new Error('usage: node bench/wasm/merge_js_rows.mjs js.json [latest.json]');
const { rows: jsRows } = JSON.parse(readFileSync(input, 'utf8'));
const higherIsBetter = (unit) => unit === 'msgs/s';
const fresh = jsRows.map((r) => ({
  name: r.name,
  unit: r.unit,
  mailroom: r.value,
  peer: r.peerValue,
  peerName: r.peerName,
  ratio: r.value && r.peerValue
    ? (higherIsBetter(r.unit) ? r.value / r.peerValue : r.peerValue / r.value) : null,
}));
const names = new Set(fresh.map((r) => r.name));
const kept = JSON.parse(readFileSync(target, 'utf8')).filter((r) => !names.has(r.name));
writeFileSync(target, JSON.stringify([...kept, ...fresh], null, 2) + '\n');
process.stderr.write(`${fresh.length} JS rows written to ${target}\n`);
