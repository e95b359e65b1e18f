// Component tests: a typed redirect target is judged by the core alone. The message
// as you type is the `malformed` reason of the runtime's dry run (deadLetters.preview,
// ActorPath::malformation), asked once typing pauses; only the last question's answer
// shows; a slow or failed dry run holds nothing back. The panel has no path rule.
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/preact';
import type { FakeSystem } from '../../devtools-ui/src/testing/fakeSystem';
import {
  click,
  key,
  mount,
  rowOf,
  settle,
  showDeadLetters,
  systemWith,
  typingPause,
  unmountAll,
  waitingForPause,
  withCoreVerdicts,
} from './panelHarness';

afterEach(unmountAll);

async function openRedirect() {
  const system = systemWith();
  system.actor('/user/checkout-v2');
  system.deadLetter('/user/checkout', { kind: 'order', id: 1 });
  const h = await mount(system);
  await showDeadLetters(h);
  await click(rowOf('1'));
  await click(within(screen.getByTestId('dl-detail')).getByTestId('dl-redirect'));
  await settle(h);
  return { system, h };
}

async function type(text: string) {
  await act(async () => void fireEvent.input(screen.getByTestId('replay-target'), { target: { value: text } }));
}

const confirmOff = () => (screen.getByTestId('replay-confirm') as HTMLButtonElement).disabled;
const invalid = () => screen.getByTestId('replay-target').getAttribute('aria-invalid');

/** A dry run the test answers by hand, one question at a time, in any order. */
function heldDryRuns(system: FakeSystem) {
  const real = system.deadLetterQueue.preview.bind(system.deadLetterQueue);
  const asked: {
    path: string | undefined;
    answer(malformed?: string): Promise<void>;
    fail(message: string): Promise<void>;
  }[] = [];
  system.deadLetterQueue.preview = (action, ids, path) =>
    new Promise((resolve, reject) => {
      // Settled inside act, with a macrotask for the panel to take the answer and render it.
      const settleWith = (go: () => Promise<void> | void) =>
        act(async () => {
          await go();
          await new Promise((done) => setTimeout(done, 0));
        });
      asked.push({
        path,
        answer: (malformed) =>
          settleWith(async () =>
            resolve(malformed ? { results: ids.map((id) => ({ id, outcome: 'unresolved-recipient', malformed })), mailboxes: [] } : await real(action, ids, path)),
          ),
        fail: (message) => settleWith(() => reject(new Error(message))),
      });
    });
  return asked;
}

describe('Redirect target: the core judges it', () => {
  // The core's words (ActorPath::malformation) for two paths; the second the panel's old rule called relative.
  const malformed: [string, string][] = [
    ['/user/check out', 'whitespace in "check out"'],
    ['/user/./$x', `"$x" starts with '$' (reserved)`],
  ];
  for (const [path, reason] of malformed) {
    it(`shows the core's reason for ${JSON.stringify(path)} in its words and keeps Confirm off`, async () => {
      const { system } = await openRedirect();
      withCoreVerdicts(system, { [path]: reason });
      await type(path);
      // Until the runtime answered, the panel says nothing of the path.
      expect(screen.queryByTestId('replay-blocked')).toBeNull();
      expect(screen.getByTestId('replay-checking')).toBeTruthy();
      expect(invalid()).toBe('false');
      await typingPause();
      const message = screen.getByTestId('replay-blocked');
      expect(message.textContent).toBe(`The runtime says the path is malformed: ${reason}`);
      expect(message.getAttribute('data-problem')).toBe('malformed');
      expect(invalid()).toBe('true');
      expect(confirmOff()).toBe(true);
      await key(screen.getByTestId('replay-target'), 'Enter');
      expect(screen.getByTestId('replay-dialog')).toBeTruthy();
      expect(system.delivered.size).toBe(0);
    });
  }

  // Paths the panel's old rule refused (another scheme, a trailing "//", relative, ".." , outside
  // /user, the guardian, a no-break space JS trims but C isspace does not): the core finds none
  // malformed, so each is sent as typed and answered by name.
  const notMalformed = ['other://test/user/checkout-v2', '/user/checkout-v2//', 'user/checkout', '/user/../system', '/system/log', '/user', '/user/checkout-v2\u00a0'];
  for (const path of notMalformed) {
    it(`has no rule of its own: ${JSON.stringify(path)} is the runtime's to answer`, async () => {
      const { system } = await openRedirect();
      const asked = withCoreVerdicts(system, {});
      await type(path);
      await typingPause();
      expect(asked).toEqual([path]);
      expect(screen.queryByTestId('replay-blocked')).toBeNull();
      expect(invalid()).toBe('false');
      expect(confirmOff()).toBe(false);
    });
  }

  it('sends a path the old rule refused as typed, and the runtime delivers it', async () => {
    // mailroom's to_local takes any scheme of the system's name (tests/parity/path_cases.json).
    const { system, h } = await openRedirect();
    await type('other://test/user/checkout-v2');
    await settle(h);
    expect(screen.getByTestId('replay-preview-resolves').textContent).toBe('yes');
    await click(screen.getByTestId('replay-confirm'));
    await settle(h);
    expect(system.delivered.get('/user/checkout-v2')).toEqual([{ kind: 'order', id: 1 }]);
  });

  it('asks once typing pauses, not for every keystroke', async () => {
    const { system } = await openRedirect();
    const asked = withCoreVerdicts(system, {});
    for (const text of ['/user/c', '/user/ch', '/user/che', '/user/check out']) await type(text);
    expect(asked).toEqual([]);
    expect(waitingForPause()).toBe(1);
    await typingPause();
    expect(asked).toEqual(['/user/check out']);
  });

  it('drops an answer that arrives after a later question was asked', async () => {
    // Asked for A, then for B; B answers first, A (malformed) late: B's verdict stays.
    const { system } = await openRedirect();
    const asked = heldDryRuns(system);
    await type('/user/check out');
    await typingPause();
    await type('/user/checkout-v2');
    await typingPause();
    expect(asked.map((a) => a.path)).toEqual(['/user/check out', '/user/checkout-v2']);
    await asked[1].answer();
    expect(screen.getByTestId('replay-preview-resolves').textContent).toBe('yes');
    await asked[0].answer('whitespace in "check out"');
    expect(screen.queryByTestId('replay-blocked')).toBeNull();
    expect(screen.queryByTestId('replay-checking')).toBeNull();
    expect(screen.getByTestId('replay-preview-resolves').textContent).toBe('yes');
    expect(confirmOff()).toBe(false);
  });

  it("never shows an earlier text's verdict for the text in the field", async () => {
    // A's answer (malformed) arrives while B is typed and unanswered: nothing is said of B yet.
    const { system } = await openRedirect();
    const asked = heldDryRuns(system);
    await type('/user/check out');
    await typingPause();
    await type('/user/checkout-v2');
    await asked[0].answer('whitespace in "check out"');
    expect(screen.queryByTestId('replay-blocked')).toBeNull();
    expect(invalid()).toBe('false');
    expect(screen.getByTestId('replay-checking')).toBeTruthy();
    await typingPause();
    await asked[1].answer();
    expect(screen.queryByTestId('replay-checking')).toBeNull();
    expect(screen.getByTestId('replay-preview-resolves').textContent).toBe('yes');
  });

  it('keeps typing and asking while a dry run hangs, and a failed one leaves Confirm on', async () => {
    const { system, h } = await openRedirect();
    const asked = heldDryRuns(system);
    await type('/user/check out');
    await typingPause();
    // The first question never answers; the field and the next question do not wait for it.
    await type('/user/checkout-v2');
    expect((screen.getByTestId('replay-target') as HTMLInputElement).value).toBe('/user/checkout-v2');
    await typingPause();
    expect(asked.map((a) => a.path)).toEqual(['/user/check out', '/user/checkout-v2']);
    await asked[1].fail('disconnected');
    expect(screen.getByTestId('replay-dry-run-error').textContent).toBe('No dry run (disconnected): the replay itself will answer by name.');
    expect(confirmOff()).toBe(false);
    await click(screen.getByTestId('replay-confirm'));
    await act(async () => {
      await h.refresh();
    });
    expect(system.delivered.get('/user/checkout-v2')).toEqual([{ kind: 'order', id: 1 }]);
  });
});
