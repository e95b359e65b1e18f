// this.log / system.log: levelled lines that go through the core's logger (so
// they are published as LogEvents and printed by its sink).
import { core } from './core_loader.js';

export class Logger {
  // actorKey: the actor whose path names the source (0: the system itself).
  constructor(system, actorKey = 0) {
    Object.defineProperty(this, '_system', { value: system });
    Object.defineProperty(this, '_key', { value: actorKey });
  }
  _write(level, args) {
    const text = args.map((a) => (typeof a === 'string' ? a : safeString(a))).join(' ');
    core.systemLog(this._system._id, this._key, level, text);
  }
  debug(...args) {
    this._write('debug', args);
  }
  info(...args) {
    this._write('info', args);
  }
  warn(...args) {
    this._write('warn', args);
  }
  error(...args) {
    this._write('error', args);
  }
}

function safeString(value) {
  if (value instanceof Error) return value.stack ?? String(value);
  try {
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  } catch {
    return String(value);
  }
}
