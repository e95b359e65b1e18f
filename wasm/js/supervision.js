// Supervision as in the seed framework: an actor's supervisorStrategy() says
// what happens to a failing child. The core applies it: the decider is called
// with the child's error (an ActorInitializationError when its constructor,
// preStart or postRestart failed, with the original error as `cause`) and
// answers a Directive; maxRetries restarts within withinTimeRangeMs, then the
// child is stopped (the core keeps that budget per child).
import { ActorInitializationError, ActorKilledError, OptionsError, describe } from './errors.js';
import { Directive } from './closed_sets.js';
import { checkField, resolveOptions, typeError } from './option_checks.js';

export { Directive };

const directives = new Set(Object.values(Directive));

// JS types here; the budget's values (whole numbers, ranges, defaults) are
// the core's (SupervisorStrategy::one_for_one).
function checkOptions(family, decider, opts) {
  if (typeof decider !== 'function') throw typeError(family, 'decider', decider);
  if (opts === null || typeof opts !== 'object') {
    throw new OptionsError(`${family}: options must be an object, got ${describe(opts)}`, {
      family, field: 'options', value: opts,
    });
  }
  const given = {
    maxRetries: checkField(family, 'maxRetries', opts.maxRetries),
    withinTimeRangeMs: checkField(family, 'withinTimeRangeMs', opts.withinTimeRangeMs),
  };
  return resolveOptions(family, given);
}

// The directive applies to the failing child only.
export class OneForOneStrategy {
  constructor(decider, opts = {}) {
    const { maxRetries, withinTimeRangeMs } = checkOptions('OneForOneStrategy', decider, opts);
    Object.defineProperty(this, 'family', { value: 'OneForOneStrategy' });
    this.scope = 'one-for-one';
    this.decider = decider;
    this.maxRetries = maxRetries;
    this.withinTimeRangeMs = withinTimeRangeMs;
    Object.freeze(this);
  }
}

// In the seed framework the directive applies to every child when one fails.
// The core has no all-for-one scope yet, so this refuses at construction
// rather than quietly supervising one-for-one.
export class AllForOneStrategy {
  constructor(decider, opts = {}) {
    checkOptions('AllForOneStrategy', decider, opts);
    throw new OptionsError(
      'AllForOneStrategy: all-for-one supervision is not supported yet (the core applies a directive to the failing child only); use OneForOneStrategy',
      { family: 'AllForOneStrategy', field: 'scope', value: 'all-for-one' },
    );
  }
}

// The core's default, spelled in JS: restart, but stop on Kill and on a failed
// start (restarting into the same failure would loop); 10 restarts a minute.
export const defaultStrategy = new OneForOneStrategy(
  (error) => (error instanceof ActorKilledError || error instanceof ActorInitializationError
    ? Directive.Stop
    : Directive.Restart),
  { maxRetries: 10, withinTimeRangeMs: 60_000 },
);

export const stoppingStrategy = new OneForOneStrategy(() => Directive.Stop);

export const escalatingStrategy = new OneForOneStrategy(() => Directive.Escalate);

// A decider from { match: ErrorClass, then: Directive } cases (first match
// wins), else `fallback`.
export function decideBy(cases, fallback = Directive.Restart) {
  if (!Array.isArray(cases)) throw new TypeError(`decideBy needs an array of cases, got ${describe(cases)}`);
  return (error) => {
    for (const c of cases) {
      if (error instanceof c.match) return c.then;
    }
    return fallback;
  };
}

// What the core gets for a strategy: null for the default (the core's own),
// else { decider, maxRetries, withinTimeRangeMs }. Anything that is not a
// strategy is an OptionsError.
export function strategyRecord(strategy, family = 'SupervisorStrategy') {
  if (strategy === defaultStrategy) return null;
  if (strategy === null || typeof strategy !== 'object') {
    throw new OptionsError(`${family}: not a SupervisorStrategy: ${describe(strategy)}`, {
      family, field: 'supervisorStrategy', value: strategy,
    });
  }
  if (strategy.scope !== 'one-for-one') {
    throw new OptionsError(`${family}: scope ${describe(strategy.scope)} is not supported (one-for-one only)`, {
      family, field: 'scope', value: strategy.scope,
    });
  }
  const strategyFamily = strategy.family ?? 'OneForOneStrategy';
  const { maxRetries, withinTimeRangeMs } = checkOptions(strategyFamily, strategy.decider, strategy);
  return { family: strategyFamily, decider: strategy.decider, maxRetries, withinTimeRangeMs };
}

// One decision, for the core: { directive } or { invalid } (a described value
// that is not a Directive). A throwing decider is reported by the caller.
export function decide(decider, error) {
  const directive = decider(error);
  if (directives.has(directive)) return { directive };
  return { invalid: describe(directive) };
}
