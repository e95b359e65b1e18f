// A readable script format for store tests: each line drives the fake system or
// the panel store, or states an expectation. See the tests for examples.
//   actor /user/a class=Sink kind=bounded capacity=10 policy=drop-head depth=3
//   letter /user/a {"kind":"order","id":1} sender=/user/b at=1000
//   degraded /user/a class=Function reason=not-serializable
//   stop /user/a            sample at=1250        filter kind:bounded
//   beat at=1500            (a live-update timer beat: incremental read)
//   replay 1 [to=/user/b]   expect rows /user/a,/user/b
//   expect row /user/a fill=0.3 droppedDelta=0    expect letters 2,1
//   expect attempts 1 replayed,quarantined
import { expect } from 'vitest';
import { FakeSystem } from '../../devtools-ui/src/testing/fakeSystem';
import { createStore, type PanelStore } from '../../devtools-ui/src/store';
import { createSystemSource } from '../../devtools-ui/src/source/systemSource';
import { createSampler, type Sampler, type SamplerEnv } from '../../devtools-ui/src/sampler';
import type { ActorSnapshot, DeadLetterSettings } from '../../devtools-ui/src/types';

export interface ScenarioContext {
  /** Runs the sampler's timer once (a live-update beat). */
  beat: () => void;
  system: FakeSystem;
  store: PanelStore;
  sampler: Sampler;
  clock: { now: number };
}

const FIELD_ALIASES: Record<string, keyof ActorSnapshot> = {
  class: 'className',
  kind: 'mailboxKind',
  policy: 'overflow',
  depth: 'userDepth',
  system: 'systemDepth',
  stash: 'stashSize',
};

function parseValue(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (text !== '' && !Number.isNaN(Number(text))) return Number(text);
  return text;
}

/** Splits `a=1 b=x rest` into named options and positional words. */
function splitArgs(words: string[]): { named: Record<string, unknown>; positional: string[] } {
  const named: Record<string, unknown> = {};
  const positional: string[] = [];
  for (const w of words) {
    const eq = w.indexOf('=');
    if (eq > 0 && !w.startsWith('{')) named[w.slice(0, eq)] = parseValue(w.slice(eq + 1));
    else positional.push(w);
  }
  return { named, positional };
}

/** A fresh context: fake system (clock-driven), store, sampler with manual timers. */
export function createScenario(settings: Partial<DeadLetterSettings> = {}, allowReplay = true): ScenarioContext {
  const clock = { now: 1_000 };
  const system = new FakeSystem('scenario', settings, () => clock.now);
  const store = createStore({ allowReplay });
  let timer: () => void = () => undefined;
  const env: SamplerEnv = {
    setInterval: (fn) => {
      timer = fn;
      return 0;
    },
    clearInterval: () => undefined,
    requestFrame: (fn) => fn(),
    now: () => clock.now,
  };
  const source = createSystemSource(system, { deadLetterType: 'DeadLetter', now: () => clock.now });
  const sampler = createSampler(store, source, env);
  return { system, store, sampler, clock, beat: () => timer() };
}

export async function run(script: string, ctx: ScenarioContext = createScenario()): Promise<ScenarioContext> {
  const { system, store, sampler, clock } = ctx;
  for (const raw of script.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    // A JSON message is the first {...} or [...] on a letter line.
    const json = /\s([{[].*[}\]])(\s|$)/.exec(line);
    const words = (json ? line.replace(json[1], '') : line).split(/\s+/).filter(Boolean);
    const [cmd, ...rest] = words;
    const { named, positional } = splitArgs(rest);
    const where = `scenario line "${line}"`;
    switch (cmd) {
      case 'actor': {
        const fields: Partial<ActorSnapshot> = {};
        for (const [k, v] of Object.entries(named)) (fields as Record<string, unknown>)[FIELD_ALIASES[k] ?? k] = v;
        system.actor(positional[0], fields);
        break;
      }
      case 'stop':
        system.stopActor(positional[0]);
        break;
      case 'fail-replays':
        system.failReplaysTo(positional[0]);
        break;
      case 'letter':
        system.deadLetter(positional[0], json ? JSON.parse(json[1]) : positional[1], {
          senderPath: (named.sender as string | undefined) ?? null,
          timestampMs: (named.at as number | undefined) ?? clock.now,
        });
        break;
      case 'degraded':
        system.deadLetter(positional[0], undefined, {
          degraded: { className: String(named.class), reason: String(named.reason) },
          timestampMs: (named.at as number | undefined) ?? clock.now,
        });
        break;
      case 'sample':
        if (named.at !== undefined) clock.now = named.at as number;
        await sampler.tick();
        break;
      case 'beat':
        // A timer beat: reads only what is new unless a full read is due.
        if (named.at !== undefined) clock.now = named.at as number;
        ctx.beat();
        await sampler.whenIdle();
        break;
      case 'filter':
        store.emit({ type: 'mailboxes/filter', text: line.slice('filter'.length).trim() });
        break;
      case 'sort':
        store.emit({ type: 'mailboxes/sort', key: positional[0] as never });
        break;
      case 'mode':
        store.emit({ type: 'mailboxes/mode', mode: positional[0] as 'tree' | 'flat' });
        break;
      case 'replay':
        store.emit({ type: 'replay/prepare', id: positional[0], altPath: (named.to as string | undefined) ?? null });
        store.emit({ type: 'replay/confirm' });
        await sampler.whenIdle();
        break;
      case 'expect': {
        const [what, subject, ...more] = positional;
        if (what === 'rows') {
          const want = subject === '-' ? [] : subject.split(',');
          expect(store.mailboxes.visible.value.map((r) => r.path), where).toEqual(want);
        } else if (what === 'row') {
          const row = store.mailboxes.rows.value.find((r) => r.path === subject);
          expect(row, where).toBeDefined();
          for (const [k, v] of Object.entries(named)) {
            const actual = (row as unknown as Record<string, unknown>)[k];
            if (k === 'history') expect((actual as number[]).join(','), where).toBe(String(v));
            else expect(actual, `${where}: ${k}`).toEqual(v);
          }
        } else if (what === 'letters') {
          const want = subject === '-' ? [] : subject.split(',');
          expect(store.deadLetters.visible.value.map((e) => e.id), where).toEqual(want);
        } else if (what === 'attempts') {
          const got = (store.deadLetters.attempts.value.get(subject) ?? []).map((a) => a.outcome);
          expect(got, where).toEqual(more[0] === '-' ? [] : more[0].split(','));
        } else if (what === 'letter') {
          const e = store.deadLetters.entries.value.find((x) => x.id === subject);
          expect(e, where).toBeDefined();
          for (const [k, v] of Object.entries(named)) expect((e as unknown as Record<string, unknown>)[k], `${where}: ${k}`).toEqual(v);
        } else if (what === 'blocked') {
          // The panel refuses before sending: the dialog names why and confirm stays off.
          store.emit({ type: 'replay/prepare', id: subject, altPath: (named.to as string | undefined) ?? null });
          const text = line.replace(/^expect\s+blocked\s+\S+/, '').replace(/\bto=\S+/, '').trim();
          expect(store.replayPreview.value?.blocked ?? '', where).toContain(text);
          store.emit({ type: 'replay/cancel' });
        } else if (what === 'delivered') {
          expect(system.delivered.get(subject) ?? [], where).toEqual(JSON.parse(json ? json[1] : '[]'));
        } else {
          throw new Error(`unknown expectation in ${where}`);
        }
        break;
      }
      default:
        throw new Error(`unknown command in ${where}`);
    }
  }
  return ctx;
}
