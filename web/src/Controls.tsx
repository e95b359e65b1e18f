// The demo's scenario cards: on/off, a rate slider, counters and actions.
// Counters are polled twice a second; all text is rendered as text.
import { useEffect, useState } from 'preact/hooks';
import type { Scenario } from './demo/scenarios';

function Card({ scenario }: { scenario: Scenario }) {
  const [, setTick] = useState(0);
  const [rate, setRate] = useState(scenario.rate?.value ?? 0);
  useEffect(() => {
    const t = setInterval(() => setTick((n) => n + 1), 500);
    return () => clearInterval(t);
  }, []);
  return (
    <article class="card" data-testid={`scenario-${scenario.id}`}>
      <header>
        <h2>{scenario.title}</h2>
        {scenario.rate && (
          <label class="switch">
            <input
              type="checkbox"
              checked={scenario.enabled}
              data-testid={`scenario-${scenario.id}-toggle`}
              onChange={(e) => {
                scenario.setEnabled((e.currentTarget as HTMLInputElement).checked);
                setTick((n) => n + 1);
              }}
            />
            running
          </label>
        )}
      </header>
      <p>{scenario.blurb}</p>
      {scenario.rate && (
        <label class="rate">
          <span>
            rate <b>{rate}</b> msg/s
          </span>
          <input
            type="range"
            min={0}
            max={scenario.rate.max}
            value={rate}
            data-testid={`scenario-${scenario.id}-rate`}
            onInput={(e) => {
              const v = Number((e.currentTarget as HTMLInputElement).value);
              setRate(v);
              scenario.setRate(v);
            }}
          />
        </label>
      )}
      <dl class="stats">
        {scenario.stats.map((s) => (
          <div key={s.label}>
            <dt>{s.label}</dt>
            <dd data-testid={`scenario-${scenario.id}-${s.label}`}>{s.value()}</dd>
          </div>
        ))}
      </dl>
      {scenario.actions.length > 0 && (
        <div class="actions">
          {scenario.actions.map((a) => (
            <button key={a.id} data-testid={`action-${a.id}`} onClick={() => a.run()}>
              {a.label}
            </button>
          ))}
        </div>
      )}
    </article>
  );
}

export interface ControlsProps {
  scenarios: Scenario[];
  systemName: string;
  /** Ordered shutdown, then reload: shows the persistent queue reading its journal back. */
  onRestart?: () => void;
}

export function Controls({ scenarios, systemName, onRestart }: ControlsProps) {
  return (
    <div class="page">
      <header class="page-head">
        <h1>Mailroom</h1>
        <p>
          A live actor system (<code>{systemName}</code>) running in WebAssembly, with a persistent dead-letter queue in
          IndexedDB: reload the page and the dead letters are still there. Start a scenario, watch mailboxes fill and shed
          in the panel below, open a dead letter, read its payload and replay it.
        </p>
        {onRestart && (
          <button class="restart" data-testid="restart-system" onClick={onRestart}>
            Shut down and reload (dead letters survive)
          </button>
        )}
      </header>
      <section class="cards">
        {scenarios.map((s) => (
          <Card key={s.id} scenario={s} />
        ))}
      </section>
    </div>
  );
}
