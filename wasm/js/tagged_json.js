// Tagged JSON for JS payloads: what a persistent dead-letter queue writes for a
// JS message (docs/dead-letters.md, "Payload fidelity"). A value either comes
// back deep-equal, type included, or the encoder refuses it with an
// EncodeRefusal naming the class and the reason (the entry is then degraded),
// never silently changed. Non-JSON values are wrapped as {"$t": tag, ...};
// every plain object is wrapped too, so a user key named "$t" is never misread.
//
// Encoding and decoding walk the value with an explicit stack (no recursion),
// so nesting depth is unlimited in JS. The JSON stays shallow for the core: a
// subtree deeper than HOIST_DEPTH levels moves into a side table
// ({"$t":"graph","v":root,"n":[...]}) and is referenced as {"$t":"node","i":k}.
// An object reached twice (not a cycle) moves there too and both places refer
// to it: it comes back as one object reached twice. References do not depend
// on key order (the core's JSON sorts object keys); "k" keeps the original
// key order where sorting would change it.
import { bytesFromBase64, bytesToBase64 } from './base64.js';

export class EncodeRefusal extends Error {
  constructor(className, reason) {
    super(reason);
    this.name = 'EncodeRefusal';
    this.className = className;
    this.reason = reason;
  }
}

const namesByProto = new WeakMap();

// Constructor name of a value, or typeof for a primitive. Never throws: a
// Proxy or a hostile prototype gives 'Object'.
export function classNameOf(value) {
  if (value === null) return 'null';
  if (typeof value !== 'object' && typeof value !== 'function') return typeof value;
  try {
    // Own descriptors only: no getter or Proxy trap runs. The capture path asks
    // for every dead letter (value_slab.js), so common prototypes answer at once.
    let proto = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) return 'Object';
    if (proto === Array.prototype) return 'Array';
    const known = namesByProto.get(proto);
    if (known !== undefined) return known;
    for (let hops = 0; proto !== null && hops < 64; hops += 1) {
      const ctor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value;
      if (typeof ctor === 'function') {
        const name = Object.getOwnPropertyDescriptor(ctor, 'name')?.value;
        const found = typeof name === 'string' && name !== '' ? name : 'Object';
        if (hops === 0) namesByProto.set(proto, found);
        return found;
      }
      proto = Object.getPrototypeOf(proto);
    }
    return 'Object';
  } catch {
    return 'Object';
  }
}

// Text of a thrown value, whatever it is (a hostile error must not throw again).
function describeThrown(thrown) {
  try {
    return String(thrown?.message ?? thrown);
  } catch {
    return 'an unprintable error';
  }
}

// Where in the value a refusal happened ("$.a[2].<key 0>"), linked to its
// parent and spelt out only for a refusal: building the text at every level
// would cost O(depth²) on a deep value. Long paths keep their last steps.
class ValuePath {
  // The step's text is before + key + after, joined only when spelt out.
  constructor(parent, before, key = '', after = '') {
    this.parent = parent;
    this.before = before;
    this.key = key;
    this.after = after;
  }

  to(before, key, after) {
    return new ValuePath(this, before, key, after);
  }

  get step() {
    return `${this.before}${this.key}${this.after}`;
  }

  toString() {
    const steps = [];
    let depth = 0;
    for (let at = this; at !== null; at = at.parent, depth += 1) if (depth < 16) steps.push(at.step);
    if (depth > 16) steps.push(`$…(${depth - 16} levels)…`);
    return steps.reverse().join('');
  }
}

// A subtree deeper than this moves into the graph's side table (the JSON of
// one tree stays well under the core's tagged_json::kMaxDepth of 256).
export const HOIST_DEPTH = 64;

const refusedClasses = new Set(['Promise', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry',
  'SharedArrayBuffer']);
const errorCtors = [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError,
  ...(typeof AggregateError === 'function' ? [AggregateError] : [])];
const errorByProto = new Map(errorCtors.map((C) => [C.prototype, C]));
const typedNames = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
  'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
const typedByProto = new Map(typedNames.filter((n) => typeof globalThis[n] === 'function')
  .map((n) => [globalThis[n].prototype, n]));
if (typeof globalThis.Buffer === 'function') typedByProto.set(globalThis.Buffer.prototype, 'Buffer');
const floatTyped = new Set(['Float32Array', 'Float64Array']);

function isPlainProto(proto) {
  return proto === Object.prototype || proto === null;
}

function specialNumber(value) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (Object.is(value, -0)) return '-0';
  return null;
}

function viewBytes(view) {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function isWellFormed(text) {
  return typeof text.isWellFormed === 'function' ? text.isWellFormed() : !loneSurrogate.test(text);
}

function codeUnits(text) {
  const units = new Array(text.length);
  for (let i = 0; i < text.length; i += 1) units[i] = text.charCodeAt(i);
  return units;
}

// A string field of a node (message, stack, source) in the same UTF-8-safe form.
function textNode(text) {
  return isWellFormed(text) ? text : { $t: 'utf16', v: codeUnits(text) };
}

// A primitive's JSON node, or undefined for an object.
function encodePrimitive(value, path, refuse) {
  switch (typeof value) {
    case 'string':
      // JSON for the core is UTF-8: a lone surrogate travels as code units.
      return textNode(value);
    case 'boolean':
      return value;
    case 'number': {
      const special = specialNumber(value);
      return special === null ? value : { $t: 'number', v: special };
    }
    case 'undefined':
      return { $t: 'undefined' };
    case 'bigint':
      return { $t: 'bigint', v: value.toString() };
    case 'function':
      throw refuse(`a function cannot be journaled (at ${path})`);
    case 'symbol':
      throw refuse(`a symbol cannot be journaled (at ${path})`);
    default:
      return value === null ? null : undefined;
  }
}

// Own enumerable string keys; an enumerable symbol key is refused (it would
// come back missing).
function ownKeys(value, path, refuse) {
  for (const symbol of Object.getOwnPropertySymbols(value)) {
    if (Object.prototype.propertyIsEnumerable.call(value, symbol)) {
      throw refuse(`a symbol-keyed property cannot be journaled (at ${path})`);
    }
  }
  const keys = Object.keys(value);
  for (const key of keys) {
    if (!isWellFormed(key)) throw refuse(`a property name with a lone surrogate cannot be journaled (at ${path})`);
  }
  return keys;
}

// allowed: the index keys a typed array or a String object has of its own
// (counted, not listed one by one: a large typed array stays cheap).
function noExtraKeys(value, cls, path, refuse, allowed = 0) {
  const count = allowed === 0 ? ownKeys(value, path, refuse).length : Reflect.ownKeys(value).length - (cls === 'String' ? 1 : 0);
  if (count > allowed) {
    throw refuse(`a ${cls} with extra own properties cannot be journaled (at ${path})`);
  }
}

// Whether the node of an object with these keys lists them ("k"): only where
// the core's sorted JSON would lose their order.
function keysOutOfOrder(keys) {
  return keys.length > 1 && keys.some((key, i) => i > 0 && keys[i - 1] > key);
}

// A property's value, read once; a throwing getter is a refusal naming the path.
function readProperty(value, key, path, refuse) {
  try {
    return value[key];
  } catch (error) {
    throw refuse(`reading the property threw (at ${path}.${key}): ${describeThrown(error)}`);
  }
}

// One object → its JSON node and the children still to encode, as
// [value, holder, key, path] (holder[key] receives the child's node).
// read: a plain object's keys and values already read once (flatObjectText).
function encodeObject(value, path, refuse, refs, read) {
  const children = [];
  const fieldsOf = (holder, keys, node, values) => {
    if (keysOutOfOrder(keys)) node.k = keys;
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i];
      // Defined, not assigned, only where assigning would set the prototype instead.
      if (key === '__proto__') Object.defineProperty(holder, key, { value: undefined, enumerable: true, writable: true, configurable: true });
      else holder[key] = undefined;
      const child = values ? values[i] : readProperty(value, key, path, refuse);
      children.push([child, holder, key, path.to('.', key), 0]);
    }
  };
  const refPath = refs?.pathOf(value);
  if (typeof refPath === 'string') return { node: { $t: 'actorref', v: refPath }, children };
  const proto = Object.getPrototypeOf(value);

  if (Array.isArray(value) && proto === Array.prototype) {
    const keys = ownKeys(value, path, refuse);
    if (keys.length === value.length && (keys.length === 0 || keys[keys.length - 1] === String(value.length - 1))) {
      const node = new Array(value.length);
      for (let i = 0; i < value.length; i += 1) children.push([value[i], node, i, path.to('[', i, ']'), 0]);
      return { node, children };
    }
    // Holes or extra properties: the length plus the own keys that exist.
    const node = { $t: 'array', n: value.length, v: {} };
    fieldsOf(node.v, keys, node);
    return { node, children };
  }
  if (isPlainProto(proto)) {
    const node = { $t: 'object', v: {} };
    if (read) fieldsOf(node.v, read.keys, node, read.values);
    else fieldsOf(node.v, ownKeys(value, path, refuse), node);
    if (proto === null) node.p = null;
    return { node, children };
  }
  const cls = classNameOf(value);
  if (proto === Date.prototype) {
    noExtraKeys(value, cls, path, refuse);
    const time = value.getTime();
    return { node: { $t: 'date', v: Number.isNaN(time) ? null : time }, children };
  }
  if (proto === RegExp.prototype) {
    noExtraKeys(value, cls, path, refuse);
    const node = { $t: 'regexp', v: textNode(value.source), f: value.flags };
    if (value.lastIndex !== 0) node.i = value.lastIndex;
    return { node, children };
  }
  if (proto === Map.prototype) {
    noExtraKeys(value, cls, path, refuse);
    const entries = [];
    let i = 0;
    for (const [k, v] of value) {
      const pair = [undefined, undefined];
      entries.push(pair);
      children.push([k, pair, 0, path.to('.<key ', i, '>'), 0], [v, pair, 1, path.to('.<value ', i, '>'), 0]);
      i += 1;
    }
    return { node: { $t: 'map', v: entries }, children };
  }
  if (proto === Set.prototype) {
    noExtraKeys(value, cls, path, refuse);
    const items = [];
    let i = 0;
    for (const item of value) {
      items.push(undefined);
      children.push([item, items, i, path.to('.<', i, '>'), 0]);
      i += 1;
    }
    return { node: { $t: 'set', v: items }, children };
  }
  if (errorByProto.has(proto)) {
    const node = { $t: 'error', c: cls, v: {} };
    const own = (key) => Object.prototype.hasOwnProperty.call(value, key);
    const keys = ownKeys(value, path, refuse).filter((k) => k !== 'cause' && k !== 'errors');
    if (own('message')) node.m = textNode(String(Object.getOwnPropertyDescriptor(value, 'message').value));
    const stack = Object.getOwnPropertyDescriptor(value, 'stack');
    if (stack && typeof stack.value === 'string') node.s = textNode(stack.value);
    if (own('cause')) children.push([value.cause, node, 'cause', path.to('.cause'), 0]);
    if (own('errors')) children.push([value.errors, node, 'errors', path.to('.errors'), 0]);
    fieldsOf(node.v, keys.filter((k) => k !== 'message' && k !== 'stack'), node);
    return { node, children };
  }
  const typed = typedByProto.get(proto);
  if (typed !== undefined) {
    noExtraKeys(value, cls, path, refuse, value.length);
    if (floatTyped.has(typed) || typed === 'Buffer') {
      return { node: { $t: 'typed', c: typed, b: bytesToBase64(viewBytes(value)) }, children };
    }
    const items = Array.from(value, (x) => (typeof x === 'bigint' ? x.toString() : x));
    return { node: { $t: 'typed', c: typed, v: items }, children };
  }
  if (proto === ArrayBuffer.prototype) {
    noExtraKeys(value, cls, path, refuse);
    return { node: { $t: 'arraybuffer', b: bytesToBase64(new Uint8Array(value)) }, children };
  }
  if (proto === DataView.prototype) {
    noExtraKeys(value, cls, path, refuse);
    return { node: { $t: 'dataview', b: bytesToBase64(viewBytes(value)) }, children };
  }
  if (proto === Number.prototype || proto === String.prototype || proto === Boolean.prototype
      || proto === BigInt.prototype) {
    const inner = value.valueOf();
    noExtraKeys(value, cls, path, refuse, typeof inner === 'string' ? inner.length : 0);
    return { node: { $t: 'boxed', v: encodePrimitive(inner, path, refuse) }, children };
  }
  if (value instanceof Promise || refusedClasses.has(cls)) {
    throw refuse(`a ${cls} cannot be journaled (at ${path})`);
  }
  throw refuse(`an instance of class ${cls} cannot be journaled: its prototype cannot be restored (at ${path})`);
}

// The common message, a plain object whose values are all primitives
// ({ kind: 'order', id: 1 }): its text written directly, the same text
// JSON.stringify gives for its node, without building the node. Otherwise
// { keys, values } as read (each property is read once, whichever path
// encodes it), or null for an object that is not plain.
function flatObjectText(value, path, refuse) {
  const proto = Object.getPrototypeOf(value);
  if (!isPlainProto(proto)) return null;
  const keys = ownKeys(value, path, refuse);
  const values = new Array(keys.length);
  let flat = true;
  for (let i = 0; i < keys.length; i += 1) {
    const child = readProperty(value, keys[i], path, refuse);
    values[i] = child;
    if (child !== null && (typeof child === 'object' || typeof child === 'function')) flat = false;
  }
  if (!flat) return { keys, values };
  try {
    return writeFlatObject(keys, values, proto, path, refuse);
  } catch (error) {
    if (error instanceof EncodeRefusal) throw error;
    throw refuse(`the JSON text cannot be built: ${describeThrown(error)}`);  // beyond the engine's string length
  }
}

// A well-formed string as JSON.stringify writes it: a short one without a
// character to escape is quoted as it is (a call of JSON.stringify costs more
// than the scan), anything else goes to JSON.stringify.
function quote(text) {
  if (text.length > 64) return JSON.stringify(text);
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return JSON.stringify(text);
  }
  return `"${text}"`;
}

function writeFlatObject(keys, values, proto, path, refuse) {
  let text = '{"$t":"object","v":{';
  for (let i = 0; i < keys.length; i += 1) {
    const child = values[i];
    let childText;
    if (typeof child === 'string' && isWellFormed(child)) {
      childText = quote(child);
    } else if (typeof child === 'number' && specialNumber(child) === null) {
      childText = String(child);  // what JSON.stringify writes for a finite number other than -0
    } else if (typeof child === 'boolean') {
      childText = child ? 'true' : 'false';
    } else {
      childText = JSON.stringify(encodePrimitive(child, path.to('.', keys[i]), refuse));
    }
    text += `${i === 0 ? '' : ','}${quote(keys[i])}:${childText}`;
  }
  text += '}';
  if (keysOutOfOrder(keys)) {
    text += ',"k":[';
    for (let i = 0; i < keys.length; i += 1) text += `${i === 0 ? '' : ','}${quote(keys[i])}`;
    text += ']';
  }
  if (proto === null) text += ',"p":null';
  return `${text}}`;
}

// JS value → tagged JSON text. Throws EncodeRefusal. refs (optional):
// { pathOf(value) → path | undefined, fromPath(path) → ActorRef } for ActorRefs.
export function encodeTagged(value, refs) {
  const rootClass = classNameOf(value);
  const refuse = (reason) => new EncodeRefusal(rootClass, reason);
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    // A primitive (the common message): its node alone, nothing to walk.
    const node = encodePrimitive(value, new ValuePath(null, '$'), refuse);
    try {
      return JSON.stringify(node);
    } catch (error) {
      throw refuse(`the JSON text cannot be built: ${describeThrown(error)}`);
    }
  }
  const rootPath = new ValuePath(null, '$');
  // The common message, an object of primitives ({ kind: 'order', id: 1 }):
  // its node, children written in place, without the walk's stack and tables.
  // encodeObject has read each property once either way, so a value that is
  // not flat goes on through the walk from the same reads (never read twice).
  let first;
  try {
    encodePrimitive(value, rootPath, refuse);  // a function is refused here, as in the walk
    const read = typeof value === 'object' ? flatObjectText(value, rootPath, refuse) : null;
    if (typeof read === 'string') return read;
    first = encodeObject(value, rootPath, refuse, refs, read);
  } catch (error) {
    if (error instanceof EncodeRefusal) throw error;
    throw refuse(`reading the value threw (at ${rootPath}): ${describeThrown(error)}`);
  }
  if (first.children.every((child) => child[0] === null || (typeof child[0] !== 'object' && typeof child[0] !== 'function'))) {
    for (const [item, holder, key, path] of first.children) holder[key] = encodePrimitive(item, path, refuse);
    try {
      return JSON.stringify(first.node);
    } catch (error) {
      throw refuse(`the JSON text cannot be built: ${describeThrown(error)}`);
    }
  }
  const top = { root: first.node };
  const table = [];
  const written = new Map();  // object → { holder, key, node, slot }
  written.set(value, { holder: top, key: 'root', node: first.node, slot: undefined });
  const open = new Set([value]);  // objects whose children are being written (a revisit is a cycle)
  const stack = [[value]];
  for (let i = first.children.length - 1; i >= 0; i -= 1) {
    const child = first.children[i];
    child[4] = 1;
    stack.push(child);
  }
  while (stack.length > 0) {
    const task = stack.pop();
    if (task.length === 1) {
      open.delete(task[0]);
      continue;
    }
    const [item, holder, key, path, depth] = task;
    try {
      const primitive = encodePrimitive(item, path, refuse);
      if (primitive !== undefined) {
        holder[key] = primitive;
        continue;
      }
      if (open.has(item)) throw refuse(`a cycle cannot be journaled (at ${path})`);
      const seen = written.get(item);
      if (seen !== undefined) {
        if (seen.slot === undefined) {
          // Reached again: its node moves to the table, and both places refer to it.
          if (seen.holder === table) {
            seen.slot = seen.key;
          } else {
            seen.slot = table.length;
            table.push(seen.node);
            seen.holder[seen.key] = { $t: 'node', i: seen.slot };
          }
        }
        holder[key] = { $t: 'node', i: seen.slot };
        continue;
      }
      if (depth >= HOIST_DEPTH) {
        holder[key] = { $t: 'node', i: table.length };
        table.push(undefined);
        stack.push([item, table, table.length - 1, path, 0]);
        continue;
      }
      const { node, children } = encodeObject(item, path, refuse, refs);
      holder[key] = node;
      written.set(item, { holder, key, node, slot: undefined });
      if (children.length > 0) {
        open.add(item);
        stack.push([item]);
        for (let i = children.length - 1; i >= 0; i -= 1) {
          const child = children[i];
          child[4] = depth + 1;  // each child task is [value, holder, key, path, depth]
          stack.push(child);
        }
      }
    } catch (error) {
      if (error instanceof EncodeRefusal) throw error;
      // A throwing getter, a Proxy trap, a detached buffer: refused, never thrown at tell.
      throw refuse(`reading the value threw (at ${path}): ${describeThrown(error)}`);
    }
  }
  const doc = table.length === 0 ? top.root : { $t: 'graph', v: top.root, n: table };
  try {
    return JSON.stringify(doc);
  } catch (error) {
    throw refuse(`the JSON text cannot be built: ${describeThrown(error)}`);  // e.g. beyond the engine's string length
  }
}

function malformed(what) {
  return new SyntaxError(`tagged JSON: ${what}`);
}

function typedFrom(node) {
  const name = node.c;
  if (!typedNames.includes(name) && name !== 'Buffer') throw malformed(`unknown typed array ${JSON.stringify(name)}`);
  const Ctor = globalThis[name];
  if (typeof Ctor !== 'function') throw malformed(`${name} does not exist here`);
  if (typeof node.b === 'string') {
    const bytes = bytesFromBase64(node.b);
    if (name === 'Buffer') return Ctor.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength % Ctor.BYTES_PER_ELEMENT !== 0) throw malformed(`${name} bytes not a whole number of elements`);
    return new Ctor(bytes.buffer, bytes.byteOffset, bytes.byteLength / Ctor.BYTES_PER_ELEMENT);
  }
  if (!Array.isArray(node.v)) throw malformed(`${name} without elements`);
  // Legacy journals wrote float elements as JSON numbers; "NaN"/"-0" strings read as numbers too.
  return Ctor.from(node.v, (x) => (name.startsWith('Big') ? BigInt(x) : Number(x)));
}

function fromCodeUnits(units) {
  if (!Array.isArray(units)) throw malformed('utf16 without code units');
  let text = '';
  for (let i = 0; i < units.length; i += 4096) text += String.fromCharCode(...units.slice(i, i + 4096));
  return text;
}

// A string field written by textNode (undefined when absent).
function textOf(field) {
  if (field === undefined || typeof field === 'string') return field;
  if (field !== null && typeof field === 'object' && field.$t === 'utf16') return fromCodeUnits(field.v);
  throw malformed('expected text');
}

function defineField(target, key, value) {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function defineHidden(target, key, value) {
  Object.defineProperty(target, key, { value, enumerable: false, writable: true, configurable: true });
}

// Tagged JSON text → JS value. Throws SyntaxError on malformed input.
export function decodeTagged(text, refs) {
  let doc = JSON.parse(text);
  let table = null;
  if (doc !== null && typeof doc === 'object' && !Array.isArray(doc) && doc.$t === 'graph') {
    if (!Array.isArray(doc.n)) throw malformed('graph without its table');
    table = doc.n;
    doc = doc.v;
  }
  const decoded = new Map();  // table slot → its value (decoded once, shared by every reference)
  const pending = new Set();  // table slots being decoded (a reference back into one is a cycle)
  const out = { root: undefined };
  // Tasks: [node, target, key, field, slots] decodes node into target[key]
  // (an own enumerable field when field is true; the table slots it stands
  // for remember it); [finish] runs after a node's children.
  const stack = [[doc, out, 'root', false, null]];
  const children = (target, pairs) => {
    // Pushed in reverse so they decode in order.
    for (let i = pairs.length - 1; i >= 0; i -= 1) stack.push([pairs[i][0], target, pairs[i][1], pairs[i][2], null]);
  };
  const fieldPairs = (node) => {
    const fields = node.v;
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) throw malformed('fields must be an object');
    let keys = Object.keys(fields);
    // "k": the original key order (the core's JSON sorts keys).
    if (Array.isArray(node.k) && node.k.length === keys.length
        && node.k.every((k) => typeof k === 'string' && Object.prototype.hasOwnProperty.call(fields, k))) keys = node.k;
    return keys.map((key) => [fields[key], key, true]);
  };
  while (stack.length > 0) {
    const task = stack.pop();
    if (task.length === 1) {
      task[0]();
      continue;
    }
    const [node, target, key, field, slots] = task;
    const settle = (result) => {
      if (field) defineField(target, key, result);
      else target[key] = result;
      if (slots !== null) for (const slot of slots) decoded.set(slot, result);
    };
    if (node === null || typeof node !== 'object') {
      settle(node);
      continue;
    }
    if (Array.isArray(node)) {
      const array = new Array(node.length);
      settle(array);
      children(array, node.map((child, i) => [child, i, false]));
      continue;
    }
    if (node.$t === 'node') {
      const slot = node.i;
      if (table === null || !Number.isInteger(slot) || slot < 0 || slot >= table.length) {
        throw malformed(`bad table reference ${JSON.stringify(slot)}`);
      }
      if (pending.has(slot)) throw malformed(`table reference ${slot} inside itself`);
      if (decoded.has(slot)) {
        settle(decoded.get(slot));
        continue;
      }
      pending.add(slot);
      stack.push([() => pending.delete(slot)]);
      stack.push([table[slot], target, key, field, slots === null ? [slot] : [...slots, slot]]);
      continue;
    }
    let value;
    switch (node.$t) {
      case 'undefined':
        value = undefined;
        break;
      case 'number':
        value = Number(node.v);  // "NaN", "Infinity", "-Infinity", "-0"
        break;
      case 'bigint':
        value = BigInt(node.v);
        break;
      case 'date':
        value = new Date(node.v === null ? NaN : node.v);
        break;
      case 'regexp':
        value = new RegExp(textOf(node.v), node.f);
        if (typeof node.i === 'number') value.lastIndex = node.i;
        break;
      case 'typed':
        value = typedFrom(node);
        break;
      case 'arraybuffer': {
        const bytes = bytesFromBase64(node.b);
        value = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
        break;
      }
      case 'dataview': {
        const bytes = bytesFromBase64(node.b);
        value = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        break;
      }
      case 'boxed': {
        const inner = node.v;
        if (inner !== null && typeof inner === 'object') {
          if (inner.$t === 'bigint') value = Object(BigInt(inner.v));
          else if (inner.$t === 'number') value = Object(Number(inner.v));
          else if (inner.$t === 'utf16') value = Object(fromCodeUnits(inner.v));
          else throw malformed('boxed value must be a primitive');
        } else {
          value = Object(inner);
        }
        break;
      }
      case 'utf16':
        value = fromCodeUnits(node.v);
        break;
      case 'actorref':
        if (typeof node.v !== 'string') throw malformed('an actorref needs a path');
        if (refs === undefined) throw malformed('an ActorRef needs a running system to come back into');
        value = refs.fromPath(node.v);
        break;
      case 'object': {
        value = node.p === null ? Object.create(null) : {};
        children(value, fieldPairs(node));
        break;
      }
      case 'array': {
        if (!Number.isInteger(node.n) || node.n < 0) throw malformed('array without a length');
        value = new Array(node.n);
        if (Array.isArray(node.v)) children(value, node.v.map((child, i) => [child, i, false]));
        else children(value, fieldPairs(node));
        break;
      }
      case 'map':
      case 'set': {
        if (!Array.isArray(node.v)) throw malformed(`${node.$t} without entries`);
        const isMap = node.$t === 'map';
        const collection = isMap ? new Map() : new Set();
        const items = new Array(node.v.length);
        value = collection;
        // Filled once every entry is decoded (insertion order kept).
        stack.push([() => {
          for (const item of items) {
            if (isMap) collection.set(item[0], item[1]);
            else collection.add(item);
          }
        }]);
        if (isMap) {
          const pairs = [];
          node.v.forEach((entry, i) => {
            if (!Array.isArray(entry) || entry.length !== 2) throw malformed('map entry must be [key, value]');
            items[i] = [undefined, undefined];
            pairs.push([entry[0], 0, items[i]], [entry[1], 1, items[i]]);
          });
          for (let i = pairs.length - 1; i >= 0; i -= 1) stack.push([pairs[i][0], pairs[i][2], pairs[i][1], false, null]);
        } else {
          children(items, node.v.map((child, i) => [child, i, false]));
        }
        break;
      }
      case 'error': {
        const Ctor = errorCtors.find((C) => C.name === node.c) ?? Error;
        value = Ctor === globalThis.AggregateError ? new Ctor([]) : new Ctor();
        const message = textOf(node.m);
        const stackText = textOf(node.s);
        if (message !== undefined) defineHidden(value, 'message', message);
        if (stackText !== undefined) defineHidden(value, 'stack', stackText);
        else delete value.stack;
        if (Ctor === globalThis.AggregateError) delete value.errors;
        const pairs = fieldPairs(node.v === undefined ? { v: {} } : node);
        const hidden = [];
        if ('cause' in node) hidden.push([node.cause, 'cause']);
        if ('errors' in node) hidden.push([node.errors, 'errors']);
        const error = value;
        const hiddenValues = {};
        stack.push([() => {
          for (const [, name] of hidden) defineHidden(error, name, hiddenValues[name]);
        }]);
        children(value, pairs);
        for (let i = hidden.length - 1; i >= 0; i -= 1) stack.push([hidden[i][0], hiddenValues, hidden[i][1], false, null]);
        break;
      }
      default:
        throw malformed(`unknown tag ${JSON.stringify(node.$t)}`);
    }
    settle(value);
  }
  return out.root;
}
