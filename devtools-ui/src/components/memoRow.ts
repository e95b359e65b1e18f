// A list row that renders again only when what it shows changed: a sample or a
// filter keystroke re-renders the list, but the rows whose item and marks are
// the same skip their diff. The item is compared field by field (the stores
// copy unchanged items, e.g. a tree row with a new level), the other props by
// identity. Signals the row reads still re-render it on their own.
import { createElement, type FunctionComponent } from 'preact';

type RowProps = Record<string, unknown>;

function sameFields(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if ((a as RowProps)[k] !== (b as RowProps)[k]) return false;
  return true;
}

/** `itemProp`: the prop holding the row's item, compared field by field. */
export function memoRow<P extends object>(row: FunctionComponent<P>, itemProp: keyof P & string): FunctionComponent<P> {
  function Memo(this: { props: RowProps; shouldComponentUpdate?: (next: RowProps) => boolean }, props: P) {
    this.shouldComponentUpdate = (next) => {
      const prev = this.props;
      for (const k in next) {
        if (k === itemProp ? !sameFields(prev[k], next[k]) : prev[k] !== next[k]) return true;
      }
      for (const k in prev) if (!(k in next)) return true;
      return false;
    };
    return createElement(row as FunctionComponent<RowProps>, props as RowProps);
  }
  Memo.displayName = `Memo(${row.displayName ?? row.name})`;
  return Memo as unknown as FunctionComponent<P>;
}
