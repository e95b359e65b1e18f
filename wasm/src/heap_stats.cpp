// Bytes the wasm heap has handed out (malloc'd and not freed), for
// bench/wasm's "bytes per queued JS message" row: a raw export, like the hot path.
#include <emscripten/emscripten.h>
#include <malloc.h>

extern "C" EMSCRIPTEN_KEEPALIVE double mr_heap_bytes() {
  return static_cast<double>(mallinfo().uordblks);
}
