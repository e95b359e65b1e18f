// Checks a program built against the installed DevTools server over HTTP, as
// a browser and a Prometheus would see it (scripts/test.d/80-package.sh):
//   node tests/package/devtools_check.mjs <program> <installed panel folder>
// The program prints "DevTools: http://127.0.0.1:<port>/?token=..." and serves
// until its standard input closes (tests/package/consumer/devtools_app.cpp).
// /healthz and /metrics answer without the token (/metrics counts the
// program's dead letter and passes promtool when it is installed), "/" only
// with it and then
// with the installed panel's index.html, whose script is served too; closing
// stdin ends the program cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const [program, panelDir] = process.argv.slice(2);
if (!program || !panelDir) {
  console.error('usage: devtools_check.mjs <program> <installed panel folder>');
  process.exit(2);
}

function fail(message) {
  console.error(`devtools check (${program}): ${message}`);
  child.kill('SIGKILL');
  process.exit(1);
}

const child = spawn(program, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const timer = setTimeout(() => fail('no DevTools URL within 20 s'), 20_000);
const url = await new Promise((resolve) => {
  let out = '';
  child.on('exit', (code) => fail(`exited (${code}) before printing its URL: ${out}`));
  child.stdout.on('data', (chunk) => {
    out += chunk;
    const m = out.match(/DevTools: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9A-Za-z_-]+)/);
    if (m) resolve(new URL(m[1]));
  });
});
clearTimeout(timer);
child.removeAllListeners('exit');

const get = async (path) => {
  const response = await fetch(new URL(path, url.origin));
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
};

const health = await get('/healthz');
if (health.status !== 200 || health.body !== 'ok\n') fail(`/healthz answered ${health.status} ${JSON.stringify(health.body)}`);

// The program's one dead letter is counted on a pool thread: look again for a while.
const captured = 'actor_dead_letters_total{outcome="captured"} 1';
let metrics;
for (let i = 0; i < 50; ++i) {
  metrics = await get('/metrics');
  if (metrics.status !== 200 || metrics.body.includes(captured)) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
if (metrics.status !== 200 || !metrics.type.startsWith('text/plain; version=0.0.4')) {
  fail(`/metrics answered ${metrics.status} (${metrics.type})`);
}
if (!metrics.body.includes(captured)) fail(`/metrics does not count the dead letter (${captured}):\n${metrics.body}`);
const promtool = spawnSync('promtool', ['check', 'metrics'], { input: metrics.body, encoding: 'utf8' });
if (promtool.error?.code !== 'ENOENT' && promtool.status !== 0) {
  fail(`promtool check metrics refused /metrics: ${promtool.stdout}${promtool.stderr}\n${metrics.body}`);
}

const withoutToken = await get('/');
if (withoutToken.status !== 401) fail(`"/" without the token answered ${withoutToken.status}, not 401`);

const installed = await readFile(join(panelDir, 'index.html'), 'utf8');
const page = await get(`/?token=${url.searchParams.get('token')}`);
if (page.status !== 200 || page.body !== installed) {
  fail(`"/?token=..." answered ${page.status}, not the installed ${join(panelDir, 'index.html')}:\n${page.body}`);
}
const script = installed.match(/<script[^>]+src="\.?(\/assets\/[^"]+\.js)"/);
if (!script) fail(`the installed index.html loads no script from assets/:\n${installed}`);
const code = await get(script[1]);
if (code.status !== 200 || !code.type.startsWith('text/javascript')) fail(`${script[1]} answered ${code.status} (${code.type})`);

const exitCode = await new Promise((resolve) => {
  const stop = setTimeout(() => fail('did not exit within 10 s of its stdin closing'), 10_000);
  child.on('exit', (c) => {
    clearTimeout(stop);
    resolve(c);
  });
  child.stdin.end();
});
if (exitCode !== 0) fail(`exited with ${exitCode}`);
console.log(`devtools check: ${program.split('/').pop()} served /healthz, /metrics and the installed panel (${script[1]})`);
