// Safe, bounded views of arbitrary JS values: payloads may be hostile (getters
// that throw, cycles, 10,000-deep nesting, megabyte strings). Nothing here
// recurses without a depth bound or reads a property outside try/catch.

export type ValueKind =
  | 'null'
  | 'undefined'
  | 'string'
  | 'number'
  | 'boolean'
  | 'bigint'
  | 'symbol'
  | 'function'
  | 'array'
  | 'map'
  | 'set'
  | 'date'
  | 'regexp'
  | 'error'
  | 'object';

export function kindOf(value: unknown): ValueKind {
  if (value === null) return 'null';
  const t = typeof value;
  if (t !== 'object') return t as ValueKind;
  try {
    if (Array.isArray(value)) return 'array';
    if (value instanceof Map) return 'map';
    if (value instanceof Set) return 'set';
    if (value instanceof Date) return 'date';
    if (value instanceof RegExp) return 'regexp';
    if (value instanceof Error) return 'error';
  } catch {
    // A revoked proxy throws on every inspection; treat it as a plain object.
  }
  return 'object';
}

export function isContainer(kind: ValueKind): boolean {
  return kind === 'array' || kind === 'map' || kind === 'set' || kind === 'object' || kind === 'error';
}

export function constructorName(value: object): string {
  try {
    const proto = Object.getPrototypeOf(value);
    const name = proto && proto.constructor && proto.constructor.name;
    return typeof name === 'string' && name !== '' ? name : 'Object';
  } catch {
    return 'Object';
  }
}

export function safeGet(target: object, key: PropertyKey): unknown {
  try {
    return (target as Record<PropertyKey, unknown>)[key];
  } catch (e) {
    return new Error(`<getter threw: ${e instanceof Error ? e.message : String(e)}>`);
  }
}

export function safeKeys(value: object): string[] {
  try {
    return Object.keys(value);
  } catch {
    return [];
  }
}

/** Number of children a container shows, without materialising them. */
export function childCount(value: unknown, kind: ValueKind): number {
  try {
    if (kind === 'array') return (value as unknown[]).length;
    if (kind === 'map') return (value as Map<unknown, unknown>).size;
    if (kind === 'set') return (value as Set<unknown>).size;
    if (kind === 'error') return safeKeys(value as object).length + 2;
    return safeKeys(value as object).length;
  } catch {
    return 0;
  }
}

export interface Child {
  key: string;
  /** JS accessor suffix for copy-path, e.g. `[3]` or `.name`. */
  access: string;
  value: unknown;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

// "__proto__" is bracketed: `.__proto__` reads as the prototype accessor to anyone
// pasting the path, while the payload's own key is what the tree shows.
function accessFor(key: string): string {
  return IDENT.test(key) && key !== '__proto__' ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** Children in [start, end): only that slice is read, so huge containers stay cheap. */
export function childrenSlice(value: unknown, kind: ValueKind, start: number, end: number): Child[] {
  const out: Child[] = [];
  try {
    if (kind === 'array') {
      const arr = value as unknown[];
      for (let i = start; i < Math.min(end, arr.length); i++) {
        out.push({ key: String(i), access: `[${i}]`, value: safeGet(arr, i) });
      }
    } else if (kind === 'map' || kind === 'set') {
      let i = 0;
      for (const item of value as Iterable<unknown>) {
        if (i >= end) break;
        if (i >= start) {
          if (kind === 'map') {
            const [k, v] = item as [unknown, unknown];
            out.push({ key: preview(k, 40), access: `.get(${preview(k, 40)})`, value: v });
          } else {
            out.push({ key: String(i), access: `[${i}]`, value: item });
          }
        }
        i++;
      }
    } else {
      const obj = value as object;
      const keys = kind === 'error' ? ['name', 'message', ...safeKeys(obj)] : safeKeys(obj);
      for (const key of keys.slice(start, end)) {
        out.push({ key, access: accessFor(key), value: safeGet(obj, key) });
      }
    }
  } catch {
    // A throwing iterator ends the listing; what was read stays shown.
  }
  return out;
}

function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + '…' : text;
}

/** A one-line, bounded description of a value (never its full content). */
export function preview(value: unknown, max = 80): string {
  const kind = kindOf(value);
  switch (kind) {
    case 'string':
      return clip(JSON.stringify(clip(value as string, max)), max + 2);
    case 'number':
    case 'boolean':
    case 'null':
    case 'undefined':
      return String(value);
    case 'bigint':
      return `${String(value)}n`;
    case 'symbol':
      return clip((value as symbol).toString(), max);
    case 'function':
      return `ƒ ${clip((value as { name?: string }).name || 'anonymous', max)}()`;
    case 'date': {
      const t = (value as Date).getTime();
      return Number.isNaN(t) ? 'Invalid Date' : (value as Date).toISOString();
    }
    case 'regexp':
      return clip(String(value), max);
    case 'array':
      return `Array(${childCount(value, kind)})`;
    case 'map':
      return `Map(${childCount(value, kind)})`;
    case 'set':
      return `Set(${childCount(value, kind)})`;
    case 'error':
      return clip(`${constructorName(value as object)}: ${String(safeGet(value as object, 'message'))}`, max);
    case 'object': {
      const name = constructorName(value as object);
      const n = childCount(value, kind);
      return `${name === 'Object' ? '' : name + ' '}{${n === 0 ? '' : '…'}}`;
    }
  }
}

/** The message "type" shown in a row: a `kind`/`type` tag, else the class name. */
export function messageType(message: unknown): string {
  const kind = kindOf(message);
  if (kind === 'object' || kind === 'error') {
    for (const tag of ['kind', 'type']) {
      const v = safeGet(message as object, tag);
      if (typeof v === 'string' && v !== '') return clip(v, 60);
    }
    return constructorName(message as object);
  }
  if (kind === 'array') return 'Array';
  return kind;
}
