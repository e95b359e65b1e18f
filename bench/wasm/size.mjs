// What a page downloads before its first actor: the JS API bundled and
// minified by Vite (the consumer's bundler), plus the .wasm it fetches, gzip
// bytes; against XState 5 bundled the same way (createMachine + createActor).
// Writes { rows } (JSON) to stdout for bench/report.mjs.
//   node bench/wasm/size.mjs
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function gzipBytes(source) {
  // Inside the checkout, so the bundler finds node_modules (xstate).
  mkdirSync(join(root, 'build'), { recursive: true });
  const dir = mkdtempSync(join(root, 'build', 'size-'));
  try {
    const entry = join(dir, 'entry.js');
    writeFileSync(entry, source);
    const out = await build({
      configFile: false, logLevel: 'silent', root: dir,
      resolve: { alias: { mailroom: join(root, 'wasm/js/index.js') } },
      build: { write: false, minify: true, target: 'esnext', modulePreload: false,
        rollupOptions: { input: entry } },
    });
    const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output);
    let js = 0;
    let wasm = 0;
    for (const file of outputs) {
      const bytes = gzipSync(file.type === 'chunk' ? file.code : file.source, { level: 9 }).length;
      if (String(file.fileName).endsWith('.wasm')) wasm += bytes;
      else js += bytes;
    }
    return { js, wasm, total: js + wasm };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const mailroom = await gzipBytes(
  "import { ActorSystem, Actor } from 'mailroom';\n" +
  "class A extends Actor { onReceive() {} }\n" +
  "ActorSystem.create('size').spawn(A, 'a').tell(1);\n");
const xstate = await gzipBytes(
  "import { createMachine, createActor } from 'xstate';\n" +
  "createActor(createMachine({ initial: 'a', states: { a: {} } })).start().send({ type: 'x' });\n");
process.stderr.write(`size: mailroom js ${mailroom.js} + wasm ${mailroom.wasm} gzip bytes; xstate ${xstate.total}\n`);
process.stdout.write(`${JSON.stringify({ rows: [
  { name: 'bytes before the first actor (gzip: bundled JS + wasm)', unit: 'bytes', value: mailroom.total,
    peerValue: xstate.total, peerName: 'XState 5 (bundled the same way)', lowerIsBetter: true },
  { name: 'of which the wasm module (gzip)', unit: 'bytes', value: mailroom.wasm, peerValue: null, peerName: '-', lowerIsBetter: true },
] })}\n`);
