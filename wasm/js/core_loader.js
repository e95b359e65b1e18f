// Loads the embind module once, at import time (top-level await), in Node and
// in the browser. Node: read the .wasm next to the module and pass wasmBinary
// (emscripten's web environment cannot read files). Browser/Vite: let emscripten
// fetch it through the URL Vite rewrites.
import createMailroomCore from '../dist/mailroom_core.mjs';

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

async function load() {
  const options = {
    print: (text) => console.log(text),
    printErr: (text) => console.error(text),
  };
  if (isNode) {
    const { readFile } = await import(/* @vite-ignore */ `node:${'fs/promises'}`);
    options.wasmBinary = await readFile(new URL('../dist/mailroom_core.wasm', import.meta.url));
  } else {
    const wasmUrl = new URL('../dist/mailroom_core.wasm', import.meta.url).href;
    options.locateFile = (file) => (file.endsWith('.wasm') ? wasmUrl : file);
  }
  return createMailroomCore(options);
}

export const core = await load();
export const runningInNode = isNode;
