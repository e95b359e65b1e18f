// Bounded JSON text of an arbitrary value, for copy, export and payload search.
// Cycles, depth and size are limited and marked in the output, never thrown on.
import { childCount, childrenSlice, constructorName, kindOf, preview } from './values';

export interface SerializeOptions {
  maxDepth?: number;
  maxChars?: number;
  indent?: number;
}

class Budget extends Error {}

export function safeStringify(value: unknown, options: SerializeOptions = {}): string {
  const maxDepth = options.maxDepth ?? 100;
  const maxChars = options.maxChars ?? 1_000_000;
  const indent = options.indent ?? 0;
  const chunks: string[] = [];
  let length = 0;
  const ancestors: unknown[] = [];

  const write = (s: string) => {
    const room = maxChars - length;
    if (s.length > room) {
      chunks.push(s.slice(0, Math.max(0, room)));
      length = maxChars;
      throw new Budget();
    }
    chunks.push(s);
    length += s.length;
  };
  const newline = (depth: number) => {
    if (indent > 0) write('\n' + ' '.repeat(indent * depth));
  };

  const visit = (v: unknown, depth: number) => {
    const kind = kindOf(v);
    switch (kind) {
      case 'string':
        write(JSON.stringify(v));
        return;
      case 'number':
        write(Number.isFinite(v as number) ? String(v) : JSON.stringify(String(v)));
        return;
      case 'boolean':
      case 'null':
        write(String(v));
        return;
      case 'undefined':
      case 'bigint':
      case 'symbol':
      case 'function':
      case 'date':
      case 'regexp':
        write(JSON.stringify(`[${preview(v, 200)}]`));
        return;
      default:
        break;
    }
    if (ancestors.includes(v)) {
      write(JSON.stringify('[Circular]'));
      return;
    }
    if (depth >= maxDepth) {
      write(JSON.stringify(`[${preview(v, 60)} beyond depth ${maxDepth}]`));
      return;
    }
    ancestors.push(v);
    const isList = kind === 'array' || kind === 'set';
    write(isList ? '[' : '{');
    const total = childCount(v, kind);
    const step = 256;
    let first = true;
    for (let start = 0; start < total; start += step) {
      for (const child of childrenSlice(v, kind, start, start + step)) {
        if (!first) write(',');
        first = false;
        newline(depth + 1);
        if (!isList) write(JSON.stringify(child.key) + (indent > 0 ? ': ' : ':'));
        visit(child.value, depth + 1);
      }
    }
    if (kind === 'object' && total === 0 && constructorName(v as object) !== 'Object') {
      write(JSON.stringify('__class') + ':' + JSON.stringify(constructorName(v as object)));
    }
    if (!first) newline(depth);
    write(isList ? ']' : '}');
    ancestors.pop();
  };

  try {
    visit(value, 0);
  } catch (e) {
    if (!(e instanceof Budget)) throw e;
    chunks.push(`…[truncated at ${maxChars} characters]`);
  }
  return chunks.join('');
}
