// A JS string that becomes a name or path in the core (an actor name, a
// selection or resolve path, a persistence id, any string option) must reach
// it unchanged. UTF-8 cannot hold a lone UTF-16 surrogate ('x\ud800abc'):
// embind's conversion would turn it into another string, so two distinct
// names could become one. Such a string is refused before the core is called.
import { InvalidActorNameError, OptionsError } from './errors.js';

// With the u flag a class of surrogates matches only unpaired ones.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export const hasLoneSurrogate = (text) => LONE_SURROGATE.test(text);

// The text with its lone surrogates written as \uXXXX (readable in a message).
export function escapeLoneSurrogates(text) {
  return text.replace(/[\uD800-\uDFFF]/gu, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

const WHY = 'it contains a lone UTF-16 surrogate, which UTF-8 cannot keep exactly';

// An actor name (spawn) or a path of actor names (actorSelection, resolve).
export function exactName(text, what) {
  if (typeof text === 'string' && hasLoneSurrogate(text)) {
    throw new InvalidActorNameError(`invalid ${what} '${escapeLoneSurrogates(text)}': ${WHY}`);
  }
  return text;
}

// A string option (a persistence id, a journal folder, HOCON text).
export function exactOption(family, field, value) {
  if (typeof value === 'string' && hasLoneSurrogate(value)) {
    const shown = escapeLoneSurrogates(value);
    throw new OptionsError(`${family}.${field} = ${shown}: ${WHY}`, { family, field, value });
  }
  return value;
}
