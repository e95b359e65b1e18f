// The panel's path module against the core's case table
// (tests/parity/path_cases.json, also run by tests/native/actor_path_test.cpp):
// the same input gives the same answer in ActorPath and devtools-ui/src/paths.ts.
import { describe, expect, it } from 'vitest';
import {
  child, elements, full, inSubtree, isUserActor, isValidName, localPath, nameOf, parentOf, systemOf, toLocal,
} from '../../devtools-ui/src/paths';
import cases from '../parity/path_cases.json';

type Case = Record<string, unknown>;
const table = cases as unknown as Record<string, Case[]>;
const s = (v: unknown) => v as string;

describe('paths mirror the core ActorPath', () => {
  const run: Record<string, (c: Case) => [unknown, unknown]> = {
    to_local: (c) => [c.system === undefined ? toLocal(s(c.path)) : toLocal(s(c.path), s(c.system)), c.local],
    system_of: (c) => [systemOf(s(c.path)), c.system],
    child: (c) => [child(s(c.parent), s(c.name)), c.path],
    parent_of: (c) => [parentOf(s(c.path)), c.parent],
    name_of: (c) => [nameOf(s(c.path)), c.name],
    elements: (c) => [elements(s(c.path)), c.elements],
    in_subtree: (c) => [inSubtree(s(c.path), s(c.root)), c.in],
    is_user_actor: (c) => [isUserActor(s(c.path)), c.user],
    is_valid_name: (c) => [isValidName(s(c.name)), c.valid],
    full: (c) => [full(s(c.system), s(c.local)), c.path],
  };

  it('covers every family of the table', () => {
    // A family the panel does not mirror would be a rule only the core knows.
    const families = Object.keys(table).filter((k) => k !== 'about');
    expect(families.sort()).toEqual(Object.keys(run).sort());
  });

  for (const [family, check] of Object.entries(run)) {
    it(`${family}: every case gives the core's answer`, () => {
      const cases = table[family];
      expect(cases.length).toBeGreaterThan(0);
      for (const c of cases) {
        const [got, want] = check(c);
        expect({ case: c, got }).toEqual({ case: c, got: want });
      }
    });
  }

  it('names of 255 characters are valid, 256 are not', () => {
    expect(isValidName('x'.repeat(255))).toBe(true);
    expect(isValidName('x'.repeat(256))).toBe(false);
    // Only the C locale's whitespace, as the core: a no-break space is a name character.
    expect(isValidName('a\u00a0b')).toBe(true);
  });

  it('localPath shows a path of any system locally and keeps malformed text as typed', () => {
    expect(localPath('mailroom://shop/user/a/')).toBe('/user/a');
    expect(localPath('user/a')).toBe('user/a');
    expect(localPath('/user//a')).toBe('/user//a');
  });
});
