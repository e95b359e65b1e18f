// The payload tree's expand all / collapse all: bounded depth, so a
// 10,000-deep payload still opens only EXPAND_ALL_DEPTH levels.
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/preact';
import { EXPAND_ALL_DEPTH } from '../../devtools-ui/src/components/JsonTree';
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
});
