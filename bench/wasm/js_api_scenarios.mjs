// What bench/wasm/js_api.mjs measures: one entry per row. `xstate: true`
// means the child also has an XState 5 version of the same workload.
export const scenarios = {
  tell_numbers: { title: '1->1 tell, numbers', unit: 'msgs/s', xstate: true },
  tell_objects: { title: '1->1 tell, small objects', unit: 'msgs/s', xstate: true },
  ping_pong: { title: 'ping-pong round trip', unit: 'us', xstate: true },
  four_producers: { title: '4 interleaved producers -> 1 actor', unit: 'msgs/s', xstate: true },
  drop_head: { title: 'bounded drop-head under overflow (tell)', unit: 'msgs/s' },
  priority_1k: { title: 'priority actor, 1 k backlog', unit: 'msgs/s' },
  priority_100k: { title: 'priority actor, 100 k backlog', unit: 'msgs/s' },
  dead_letters_memory: { title: 'dead-letter capture, memory store', unit: 'us', target: 1 },
  dead_letters_persistent: { title: 'dead-letter capture, persistent store', unit: 'us', target: 5 },
  dead_letters_persistent_unsynced: { title: 'dead-letter capture, persistent, no sync in the run (the bound\'s cost: <= 10 %)', unit: 'us' },
  queued_bytes: { title: 'bytes per queued JS message', unit: 'bytes' },
};
