// The filter language, the Prometheus reader and the export file format.
import { describe, expect, it } from 'vitest';
import { globToRegExp, parseFilter } from '../../devtools-ui/src/store/filterQuery';
import { groupBy, parsePrometheus } from '../../devtools-ui/src/store/prometheus';
import { buildExport, ImportError, parseExport } from '../../devtools-ui/src/store/exportFile';

describe('filter language', () => {
  it('matches ** across any number of segments and * within one', () => {
    // path:/user/orders/** covers the node and its whole subtree.
    const all = globToRegExp('/user/orders/**');
    const one = globToRegExp('/user/*/payment');
    expect(['/user/orders', '/user/orders/a/b', '/user/ordersX'].map((p) => all.test(p))).toEqual([true, true, false]);
    expect(['/user/orders/payment', '/user/a/b/payment'].map((p) => one.test(p))).toEqual([true, false]);
  });

  it('parses comparisons, percentages and negation', () => {
    // fill>=85% is a fraction; a leading minus negates the clause.
    expect(parseFilter('fill>=85% -dropped=0 suspended:true').clauses).toEqual([
      { type: 'compare', field: 'fill', op: '>=', value: 0.85, negate: false },
      { type: 'compare', field: 'dropped', op: '=', value: 0, negate: true },
      { type: 'suspended', value: true, negate: false },
    ]);
  });

  it('names every malformed token', () => {
    // Errors say what is wrong; nothing is silently dropped.
    expect(parseFilter('size>3 suspended:maybe kind:').errors).toEqual([
      'unknown numeric field "size"',
      'suspended: expects true or false, got "maybe"',
      '"kind:" needs a value',
    ]);
  });
});

describe('Prometheus reader', () => {
  it('reads families, labels with escapes and values', () => {
    // HELP/TYPE lines attach to their family; label values are unescaped.
    const families = parsePrometheus(
      [
        '# HELP actor_dead_letters_total Dead letters.',
        '# TYPE actor_dead_letters_total counter',
        'actor_dead_letters_total{outcome="captured"} 12',
        'actor_dead_letters_total{outcome="replayed"} 3',
        '# TYPE actor_mailbox_dropped_total counter',
        'actor_mailbox_dropped_total{class="A",path="/user/a \\"x\\"",policy="drop-head"} 5',
        'actor_mailbox_dropped_total{class="B",path="/user/b",policy="drop-new"} 2',
        'actor_mailbox_dropped_total{class="C",path="/user/c",policy="drop-head"} 1',
        'garbage line here',
      ].join('\n'),
    );
    expect(families.map((f) => [f.name, f.type, f.samples.length])).toEqual([
      ['actor_dead_letters_total', 'counter', 2],
      ['actor_mailbox_dropped_total', 'counter', 3],
    ]);
    expect(families[1].samples[0].labels.path).toBe('/user/a "x"');
    expect([...groupBy(families, 'actor_mailbox_dropped_total', 'policy')]).toEqual([
      ['drop-head', 6],
      ['drop-new', 2],
    ]);
  });
});

describe('export file', () => {
  it('round-trips the filtered view and turns cyclic payloads into safe JSON', () => {
    // An export always parses back, whatever the payloads were.
    const cyclic: Record<string, unknown> = { kind: 'order' };
    cyclic.self = cyclic;
    const file = buildExport(
      { store: 'memory', maxEntries: 10, retentionMs: null, maxReplays: 3 },
      [],
      [{ id: '1', timestampMs: 5, recipientPath: '/user/a', senderPath: null, replayCount: 0, quarantined: false, payload: { kind: 'captured', message: cyclic } }],
      99,
    );
    const back = parseExport(JSON.stringify(file));
    expect(back.deadLetters[0].payload).toEqual({ kind: 'captured', message: { kind: 'order', self: '[Circular]' } });
    expect(back.exportedAtMs).toBe(99);
  });

  it('refuses files that are not exports, naming the problem', () => {
    // ImportError messages say what is wrong with the file.
    expect(() => parseExport('{')).toThrow(ImportError);
    expect(() => parseExport('{"format":"other"}')).toThrow('not a mailroom-devtools-export file');
    expect(() => parseExport('{"format":"mailroom-devtools-export","version":1,"mailboxes":[],"deadLetters":[{}]}')).toThrow(
      'deadLetters[0] is not an entry',
    );
  });
});

describe('metrics store', () => {
  it('turns the captured counter into a per-second rate between samples', async () => {
    // Rate = captured delta / seconds between scrapes; other outcomes do not count.
    const { createMetricsStore } = await import('../../devtools-ui/src/store/metrics');
    const m = createMetricsStore();
    const scrape = (captured: number, replayed: number) =>
      `actor_dead_letters_total{outcome="captured"} ${captured}\nactor_dead_letters_total{outcome="replayed"} ${replayed}\n`;
    m.apply(scrape(10, 0), 1000);
    m.apply(scrape(15, 4), 1500);
    m.apply(scrape(15, 9), 2500);
    expect(m.deadLetterRate.value).toEqual([
      { atMs: 1500, perSecond: 10 },
      { atMs: 2500, perSecond: 0 },
    ]);
  });
});
