// A Journal over real files for Node (ActorSystemOptions.withJournalDir): one
// file per stream, one JSON line per record. The core's JsJournal adapter calls
// these methods synchronously. A torn last line is reported as damage and cut
// off at the next append; the valid prefix is kept.
import { runningInNode } from './core_loader.js';

// Specifiers kept opaque so browser bundlers (Vite) never try to resolve them.
const nodeModule = (name) => import(/* @vite-ignore */ `node:${name}`);
const fs = runningInNode ? await nodeModule('fs') : null;
const pathModule = runningInNode ? await nodeModule('path') : null;

export class NodeJournal {
  constructor(dir) {
    if (!fs) throw new TypeError('withJournalDir needs Node (the browser journal is IndexedDB)');
    this.dir = dir;
    fs.mkdirSync(dir, { recursive: true });
    this._valid = new Map();  // stream → { bytes, last } of the valid prefix
  }

  _file(stream) {
    return pathModule.join(this.dir, `${encodeURIComponent(stream)}.jsonl`);
  }

  read(stream) {
    const file = this._file(stream);
    const out = { records: [], damaged: false, damagedAtOffset: 0, damage: '' };
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    let offset = 0;
    let last = 0;
    while (offset < text.length) {
      const end = text.indexOf('\n', offset);
      const line = end < 0 ? null : text.slice(offset, end);
      let record = null;
      try {
        record = line === null ? null : JSON.parse(line);
      } catch {
        record = null;
      }
      if (!record || typeof record.s !== 'number' || typeof record.p !== 'string') {
        out.damaged = true;
        out.damagedAtOffset = Buffer.byteLength(text.slice(0, offset));
        out.damage = end < 0 ? 'torn tail (no line end)' : `unreadable record at byte ${out.damagedAtOffset}`;
        break;
      }
      if (record.s > 0) out.records.push({ sequence: record.s, payload: record.p });
      last = Math.max(last, Math.abs(record.s));
      offset = end + 1;
    }
    this._valid.set(stream, { bytes: Buffer.byteLength(text.slice(0, offset)), last, damaged: out.damaged });
    return out;
  }

  _state(stream) {
    if (!this._valid.has(stream)) this.read(stream);
    return this._valid.get(stream);
  }

  append(stream, payload) {
    const state = this._state(stream);
    const file = this._file(stream);
    if (state.damaged) {
      fs.truncateSync(file, state.bytes);
      state.damaged = false;
    }
    const sequence = state.last + 1;
    const line = `${JSON.stringify({ s: sequence, p: payload })}\n`;
    fs.appendFileSync(file, line);
    state.last = sequence;
    state.bytes += Buffer.byteLength(line);
    return sequence;
  }

  flush() {}

  // Prefix compaction: rewrite the file without records <= upTo, keeping the
  // highest sequence (as a marker with a negative number) so numbering goes on.
  deleteUpTo(stream, upTo) {
    const { records } = this.read(stream);
    const state = this._state(stream);
    const kept = records.filter((r) => r.sequence > upTo);
    let text = `${JSON.stringify({ s: -state.last, p: '' })}\n`;
    for (const r of kept) text += `${JSON.stringify({ s: r.sequence, p: r.payload })}\n`;
    fs.writeFileSync(this._file(stream), text);
    this._valid.delete(stream);
  }
}
