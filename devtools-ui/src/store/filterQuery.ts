// The mailbox filter language: `path:/user/orders/**`, `kind:bounded`,
// `policy:drop-head`, `class:Sink`, `suspended:true`, numeric comparisons such as
// `dropped>0` or `fill>=85%`, a leading `-` to negate, anything else free text.
import { localPath } from '../paths';

export interface FilterableRow {
  path: string;
  className: string;
  mailboxKind: string;
  overflow: string | null;
  suspended: boolean;
  userDepth: number;
  systemDepth: number;
  stashSize: number;
  dropped: number;
  processed: number;
  capacity: number | null;
  fill: number | null;
  growth: number;
}

export const NUMERIC_FIELDS = {
  depth: (r: FilterableRow) => r.userDepth,
  system: (r: FilterableRow) => r.systemDepth,
  stash: (r: FilterableRow) => r.stashSize,
  dropped: (r: FilterableRow) => r.dropped,
  processed: (r: FilterableRow) => r.processed,
  capacity: (r: FilterableRow) => r.capacity,
  fill: (r: FilterableRow) => r.fill,
  growth: (r: FilterableRow) => r.growth,
} as const;
type NumericField = keyof typeof NUMERIC_FIELDS;

const TEXT_FIELDS = {
  kind: (r: FilterableRow) => r.mailboxKind,
  policy: (r: FilterableRow) => r.overflow ?? 'none',
  class: (r: FilterableRow) => r.className,
} as const;
type TextField = keyof typeof TEXT_FIELDS;

type Op = '>' | '>=' | '<' | '<=' | '=' | '!=';

export type Clause =
  | { type: 'path'; glob: RegExp; negate: boolean }
  | { type: 'text-field'; field: TextField; value: string; negate: boolean }
  | { type: 'suspended'; value: boolean; negate: boolean }
  | { type: 'compare'; field: NumericField; op: Op; value: number; negate: boolean }
  | { type: 'free'; value: string; negate: boolean };

export interface ParsedFilter {
  clauses: Clause[];
  errors: string[];
}

/** `*` is one path segment, `**` any number of segments (including none). */
export function globToRegExp(glob: string): RegExp {
  const parts = localPath(glob).split('/');
  let source = '';
  parts.forEach((part, i) => {
    if (i === 0) return; // leading empty segment before the first '/'
    if (part === '**') {
      source += '(?:/.*)?';
      return;
    }
    const escaped = part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
    source += '/' + escaped;
  });
  return new RegExp('^' + (source === '' ? '/' : source) + '$');
}

const COMPARE = /^([a-z]+)(>=|<=|!=|>|<|=)(-?\d+(?:\.\d+)?)(%?)$/i;

function parseToken(raw: string): Clause | string {
  const negate = raw.startsWith('-') && raw.length > 1;
  const token = negate ? raw.slice(1) : raw;
  const cmp = COMPARE.exec(token);
  if (cmp) {
    const field = cmp[1].toLowerCase();
    if (!(field in NUMERIC_FIELDS)) return `unknown numeric field "${cmp[1]}"`;
    let value = Number(cmp[3]);
    if (cmp[4] === '%') value /= 100;
    return { type: 'compare', field: field as NumericField, op: cmp[2] as Op, value, negate };
  }
  const colon = token.indexOf(':');
  if (colon > 0) {
    const key = token.slice(0, colon).toLowerCase();
    const value = token.slice(colon + 1);
    if (value === '') return `"${key}:" needs a value`;
    if (key === 'path') return { type: 'path', glob: globToRegExp(value), negate };
    if (key === 'suspended') {
      if (value !== 'true' && value !== 'false') return `suspended: expects true or false, got "${value}"`;
      return { type: 'suspended', value: value === 'true', negate };
    }
    if (key in TEXT_FIELDS) {
      return { type: 'text-field', field: key as TextField, value: value.toLowerCase(), negate };
    }
    if (!token.includes('/')) return `unknown filter key "${key}"`;
  }
  return { type: 'free', value: token.toLowerCase(), negate };
}

export function parseFilter(text: string): ParsedFilter {
  const clauses: Clause[] = [];
  const errors: string[] = [];
  for (const raw of text.trim().split(/\s+/)) {
    if (raw === '') continue;
    const parsed = parseToken(raw);
    if (typeof parsed === 'string') errors.push(parsed);
    else clauses.push(parsed);
  }
  return { clauses, errors };
}

function compare(actual: number | null, op: Op, expected: number): boolean {
  if (actual === null) return false;
  switch (op) {
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '=':
      return actual === expected;
    case '!=':
      return actual !== expected;
  }
}

function test(clause: Clause, row: FilterableRow): boolean {
  switch (clause.type) {
    case 'path':
      return clause.glob.test(localPath(row.path));
    case 'text-field':
      return TEXT_FIELDS[clause.field](row).toLowerCase() === clause.value;
    case 'suspended':
      return row.suspended === clause.value;
    case 'compare':
      return compare(NUMERIC_FIELDS[clause.field](row), clause.op, clause.value);
    case 'free': {
      const hay = `${row.path} ${row.className} ${row.mailboxKind} ${row.overflow ?? ''}`.toLowerCase();
      return hay.includes(clause.value);
    }
  }
}

/** Every clause must hold (AND); a negated clause must not. */
export function matchesFilter(filter: ParsedFilter, row: FilterableRow): boolean {
  for (const clause of filter.clauses) {
    if (test(clause, row) === clause.negate) return false;
  }
  return true;
}
