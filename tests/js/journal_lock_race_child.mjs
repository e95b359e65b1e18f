// Child of the stale-lock race test: on "go" it takes the Node journal's lock
// of every stream in the list, in order, and reports which it won; it keeps
// them (stays alive) until told to exit, so its pid stays live meanwhile.
import { NodeJournalStorage } from '../../wasm/js/node_journal.js';

process.on('message', (message) => {
  if (message.type === 'exit') process.exit(0);
  if (message.type !== 'go') return;
  const storage = new NodeJournalStorage(message.dir);
  const won = [];
  const refused = [];
  for (const name of message.names) {
    const holder = storage.lock(name);
    if (holder === null) won.push(name);
    else refused.push(holder);
  }
  process.send({ type: 'done', pid: process.pid, won, refused });
});
process.send({ type: 'ready' });
