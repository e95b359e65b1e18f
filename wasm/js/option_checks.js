// The JS half of option validation: JS types only. Which type a field takes
// comes from the core's table (core.optionSchema()), a wrong type becomes the
// core's own OptionsError (core.optionTypeError), and every value and
// combination rule stays in the core. Nothing wrong-typed is ever handed to
// an embind conversion. Errors carry the value as the user gave it.
import { core } from './core_loader.js';
import { OptionsError, errorFromRecord } from './errors.js';
import { exactOption } from './exact_text.js';

// { family: { field: 'number' | 'string' | 'boolean' | 'function' | 'object' } }
export const optionSchema = Object.freeze(core.optionSchema());

// typeof, with 'null' and 'array' told apart from 'object' (as the core does).
export function jsTypeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

// How a value reads as an OptionsError value in the core (options_from_js.cpp
// js_value_text); never calls user code.
export function valueText(value) {
  const type = jsTypeOf(value);
  if (type === 'number') return String(value);
  if (type === 'string') return value;
  if (type === 'boolean' || type === 'null' || type === 'undefined') return String(value);
  if (type === 'array' || type === 'object') return `an ${type}`;
  return `a ${type}`;
}

// The core's OptionsError for `value` in `family.field` when its JS type is
// wrong; the value passes through otherwise (undefined and null mean unset).
export function checkField(family, field, value) {
  if (value === undefined || value === null) return value;
  const type = optionSchema[family]?.[field];
  if (type === undefined || jsTypeOf(value) === type) return exactOption(family, field, value);
  throw typeError(family, field, value);
}

export function typeError(family, field, value) {
  const status = core.optionTypeError(family, field, jsTypeOf(value), valueText(value));
  const error = status?.error ? errorFromRecord(status.error)
    : new OptionsError(`${family}.${field}: wrong type`, { family, field });
  error.value = value;
  return error;
}

// Every field of a settings object: one the family does not name is the
// core's OptionsError ("did you mean ...?"), never ignored; then each known
// field's JS type, in the core's order (so two wrong fields are reported as
// natively: the first in the table); returns the object.
export function checkFields(family, settings) {
  const known = optionSchema[family];
  if (known !== undefined) {
    for (const field of Object.keys(settings)) {
      if (settings[field] === undefined || Object.hasOwn(known, field)) continue;
      const status = core.optionFieldError(family, field, valueText(settings[field]));
      if (status?.error) {
        const error = errorFromRecord(status.error);
        error.value = settings[field];
        throw error;
      }
    }
  }
  for (const field of Object.keys(known ?? {})) checkField(family, field, settings[field]);
  return settings;
}

// Runs a core call; an OptionsError it raises gets back the value the user
// gave (the core reports values as text: "0", "NaN", "(unset)").
// sources: { family: settings object } for the families the call reads.
export function withUserValues(sources, call) {
  try {
    return call();
  } catch (error) {
    if (error instanceof OptionsError) restoreValue(error, sources[error.family]);
    throw error;
  }
}

function restoreValue(error, settings) {
  if (settings === undefined || settings === null || typeof error.value !== 'string') return;
  const given = settings[error.field];
  if (given === undefined || given === null) {
    if (error.value === '(unset)') error.value = given;
  } else if (valueText(given) === error.value) {
    error.value = given;
  }
}

// What the core makes of a settings record of `family`: the effective values,
// or its OptionsError (with the user's value).
export function resolveOptions(family, settings, systemName = '') {
  const sources = { [family]: settings };
  if (family === 'ActorSystemOptions') sources.DeadLetterQueueOptions = settings.deadLetters;
  return withUserValues(sources, () => {
    const result = core.optionsResolve(family, settings, systemName);
    if (result && result.error !== undefined) throw errorFromRecord(result.error);
    return result;
  });
}
