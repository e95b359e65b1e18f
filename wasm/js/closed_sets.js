// The closed sets of the API (overflow policies, drop reasons, stores, replay
// outcomes, directives, log levels) as frozen JS enums, built from the core's
// own table (core.closedSets(), made from the C++ enums' to_string), so each
// set is defined once, in the core. Values are the strings the API takes.
import { core } from './core_loader.js';

const sets = core.closedSets();

// 'drop-lowest-priority' → DropLowestPriority
function memberName(value) {
  return value.split('-').map((part) => part[0].toUpperCase() + part.slice(1)).join('');
}

function closedSet(values) {
  return Object.freeze(Object.fromEntries(values.map((v) => [memberName(v), v])));
}

export const OverflowPolicy = closedSet(sets.overflowPolicy);
export const DropReason = closedSet(sets.dropReason);
export const DeadLetterStore = closedSet(sets.deadLetterStore);
export const ReplayOutcome = closedSet(sets.replayOutcome);
export const Directive = closedSet(sets.directive);
export const LogLevel = closedSet(sets.logLevel);

// The binding's own integer codes (wasm/src/wire_codes.hpp), internal to the
// wrapper: member name -> the integer that crosses (its index in the core's list).
function codes(values) {
  return Object.freeze(Object.fromEntries(values.map((v, i) => [memberName(v), i])));
}

export const SpecialMessage = codes(sets.specialMessage);
export const MailboxQueue = codes(sets.mailboxQueue);
