// Bounded serialisation and previews of hostile payloads.
import { describe, expect, it } from 'vitest';
import { safeStringify } from '../../devtools-ui/src/payload/serialize';
import { childrenSlice, messageType, preview } from '../../devtools-ui/src/payload/values';

function nested(depth: number): unknown {
  let v: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) v = { child: v };
  return v;
}

describe('safeStringify', () => {
  it('writes plain values as ordinary JSON', () => {
    // Without limits hit, the output parses back to the same value.
    const value = { a: [1, 'x', null, true], b: { c: 'd' } };
    expect(JSON.parse(safeStringify(value))).toEqual(value);
  });

  it('marks cycles instead of recursing forever', () => {
    // A cyclic reference becomes the string "[Circular]".
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    expect(JSON.parse(safeStringify(a))).toEqual({ name: 'a', self: '[Circular]' });
  });

  it('stops at the depth limit on 10,000-deep nesting', () => {
    // Deep values are cut at maxDepth with a marker, not a stack overflow.
    const text = safeStringify(nested(10_000), { maxDepth: 3 });
    expect(JSON.parse(text)).toEqual({ child: { child: { child: '[{…} beyond depth 3]' } } });
  });

  it('truncates at the character budget and says so', () => {
    // A 1 MB string costs only the budget.
    const text = safeStringify({ s: 'x'.repeat(1_000_000) }, { maxChars: 100 });
    expect(text.length).toBeLessThan(150);
    expect(text.endsWith('…[truncated at 100 characters]')).toBe(true);
  });

  it('names values JSON cannot hold and survives throwing getters', () => {
    // Functions, symbols, bigints and throwing getters become descriptive strings.
    const value = {
      f: function send() {},
      s: Symbol('k'),
      n: 10n,
      get boom(): never {
        throw new Error('no');
      },
    };
    expect(JSON.parse(safeStringify(value))).toEqual({
      f: '[ƒ send()]',
      s: '[Symbol(k)]',
      n: '[10n]',
      boom: { name: 'Error', message: '<getter threw: no>' },
    });
  });
});

describe('value previews', () => {
  it('keeps markup as plain characters in previews', () => {
    // Previews are text; the caller renders them as text nodes.
    expect(preview('<img src=x onerror=alert(1)>')).toBe('"<img src=x onerror=alert(1)>"');
  });

  it('reads only the requested slice of a huge array', () => {
    // Chunked rendering asks for 100 children of a million.
    const big = Array.from({ length: 1_000_000 }, (_, i) => i);
    const slice = childrenSlice(big, 'array', 500_000, 500_003);
    expect(slice.map((c) => [c.key, c.access, c.value])).toEqual([
      ['500000', '[500000]', 500000],
      ['500001', '[500001]', 500001],
      ['500002', '[500002]', 500002],
    ]);
  });

  it('derives the message type from a tag or the class', () => {
    // kind/type tags win, then the constructor name, then the JS type.
    class OrderPlaced {}
    expect([messageType({ kind: 'urgent' }), messageType(new OrderPlaced()), messageType('hi'), messageType(null)]).toEqual([
      'urgent',
      'OrderPlaced',
      'string',
      'null',
    ]);
  });
});
