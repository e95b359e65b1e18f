// The payload tree's expand all / collapse all: bounded depth, so a
// 10,000-deep payload still opens only EXPAND_ALL_DEPTH levels.
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/preact';
import { searchPayload, MAX_NODES } from '../../devtools-ui/src/payload/search';
import { EXPAND_ALL_DEPTH } from '../../devtools-ui/src/components/JsonTree';
import { decodePayload } from '../../devtools-ui/src/payload/tagged';
import { click, mount, rowOf, showDeadLetters, systemWith, unmountAll } from './panelHarness';

afterEach(unmountAll);

async function detailWith(message: unknown) {
  const system = systemWith();
  system.deadLetter('/user/checkout', message);
  const h = await mount(system);
  await showDeadLetters(h);
  await click(rowOf('1'));
  return screen.getByTestId('dl-detail');
}

describe('Payload tree', () => {
  it('expands every level and collapses them again', async () => {
    const detail = await detailWith({ a: { b: { c: { d: 1 } } }, list: [1, 2] });
    const nodes = () => detail.querySelectorAll('.mr-json-node').length;
    expect(nodes()).toBe(3); // the root open: a and list
    await click(within(detail).getByTestId('json-expand-all'));
    expect(nodes()).toBe(8); // root, a, b, c, d, list, 1, 2
    await click(within(detail).getByTestId('json-collapse-all'));
    expect(nodes()).toBe(1);
  });

  it('opens at most EXPAND_ALL_DEPTH levels of a 10,000-deep payload', async () => {
    let deep: unknown = { end: true };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    const detail = await detailWith(deep);
    await click(within(detail).getByTestId('json-expand-all'));
    expect(detail.querySelectorAll('.mr-json-node').length).toBe(EXPAND_ALL_DEPTH + 1);
  });

  it('a selected key shows its breadcrumb; a crumb selects that ancestor and copies its path', async () => {
    const detail = await detailWith({ order: { lines: [{ sku: 'a-1' }] } });
    await click(within(detail).getByTestId('json-expand-all'));
    const sku = [...detail.querySelectorAll('[data-testid=json-key]')].find((k) => k.getAttribute('data-path') === 'message.order.lines[0].sku')!;
    await click(sku);
    const crumbs = () => within(detail).getAllByTestId('json-crumb').map((c) => c.textContent);
    expect(crumbs()).toEqual(['message', 'order', 'lines', '0', 'sku']);
    await click(within(detail).getAllByTestId('json-crumb')[2]);
    expect(crumbs()).toEqual(['message', 'order', 'lines']);
    expect(detail.querySelector('.mr-json-selected')!.getAttribute('data-path')).toBe('message.order.lines');
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t: string) => void written.push(t) } });
    await click(within(detail).getByTestId('json-crumb-copy'));
    await act(async () => {
      await Promise.resolve();
    });
    expect(written).toEqual(['message.order.lines']);
  });

  it('find highlights every match, opens the way to the current one, and steps next/previous', async () => {
    // Matches deep in closed containers and past the first chunk of a big array are found and revealed.
    const big = Array.from({ length: 250 }, (_, i) => ({ id: i, note: i === 230 ? 'needle here' : 'hay' }));
    const detail = await detailWith({ first: { deeper: { text: 'a needle' } }, big, needleKey: 1 });
    const find = within(detail).getByTestId('json-find');
    await act(async () => {
      fireEvent.input(find, { target: { value: 'NEEDLE' } });
    });
    expect(within(detail).getByTestId('json-find-count').textContent).toBe('1 of 3');
    const current = () => detail.querySelector('.mr-json-current')!.getAttribute('data-path');
    expect(current()).toBe('message.first.deeper.text');
    expect(within(detail).getAllByTestId('json-crumb').map((c) => c.textContent)).toEqual(['message', 'first', 'deeper', 'text']);
    await click(within(detail).getByTestId('json-find-next'));
    expect(current()).toBe('message.big[230].note');
    expect(within(detail).getByTestId('json-find-count').textContent).toBe('2 of 3');
    await act(async () => {
      fireEvent.keyDown(find, { key: 'Enter' });
    });
    expect(current()).toBe('message.needleKey');
    await click(within(detail).getByTestId('json-find-next'));
    expect(current()).toBe('message.first.deeper.text');
    await click(within(detail).getByTestId('json-find-prev'));
    expect(current()).toBe('message.needleKey');
    // Every match on screen is marked, not only the current one.
    expect([...detail.querySelectorAll('.mr-json-match')].map((n) => n.getAttribute('data-path'))).toEqual([
      'message.first.deeper.text',
      'message.big[230].note',
      'message.needleKey',
    ]);
  });

  it('find is bounded and cycle-safe on hostile payloads', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(searchPayload(cyclic, 'm', 'loop').matches.map((m) => m.path)).toEqual(['m.name']);
    const huge = Array.from({ length: MAX_NODES * 2 }, (_, i) => i);
    const r = searchPayload(huge, 'm', '7');
    expect(r.truncated).toBe(true);
    expect(r.matches.length).toBeGreaterThan(0);
  });

  it('renders __proto__, constructor and prototype keys as plain keys with their values, touching no prototype', async () => {
    // JSON.parse makes "__proto__" an own key (an object literal would set the prototype instead).
    const message = JSON.parse('{"__proto__": {"polluted": "yes", "kind": "evil"}, "constructor": {"name": "Fake"}, "prototype": 7, "b": 1}');
    const detail = await detailWith(message);
    await click(within(detail).getByTestId('json-expand-all'));
    const keys = [...detail.querySelectorAll('[data-testid=json-key]')].map((k) => k.getAttribute('data-path'));
    expect(keys).toEqual(
      expect.arrayContaining([
        'message["__proto__"]',
        'message["__proto__"].polluted',
        'message.constructor',
        'message.constructor.name',
        'message.prototype',
        'message.b',
      ]),
    );
    const text = detail.textContent ?? '';
    expect(text).toContain('"yes"');
    expect(text).toContain('"Fake"');
    expect(text).toContain('7');
    // Nothing leaked into Object.prototype, and the row still names the message by its class, not the own "kind" below __proto__.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(message)).toBe(Object.prototype);
    expect(rowOf('1').textContent).not.toContain('evil');
  });

  it('the protocol decoder keeps a tagged "__proto__" field as an own key, never as the prototype', () => {
    const wire = JSON.parse('{"$t":"object","v":{"__proto__":{"$t":"object","v":{"polluted":1}},"constructor":2}}');
    const decoded = decodePayload({ kind: 'captured', type: 'Object', tag: 'js', value: wire });
    const message = (decoded as { message: Record<string, unknown> }).message;
    expect(Object.getPrototypeOf(message)).toBe(Object.prototype);
    expect(Object.keys(message)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(message, '__proto__')!.value).toEqual({ polluted: 1 });
    expect(message.polluted).toBeUndefined();
  });
});
