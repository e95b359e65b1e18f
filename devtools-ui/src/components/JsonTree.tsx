// The payload as an expandable tree. Rendering is lazy (a node's children exist
// only once it is opened), big containers are chunked, long strings truncated,
// cycles detected, and every value is rendered as text — never as markup.
import { createContext } from 'preact';
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { childCount, childrenSlice, isContainer, kindOf, preview } from '../payload/values';
import { safeStringify } from '../payload/serialize';
import { searchPayload } from '../payload/search';

/** What the whole tree shares: the selected node, the search matches and the way to the current one. */
interface TreeState {
  selectedPath: string | null;
  select: (trail: readonly Crumb[]) => void;
  matchPaths: ReadonlySet<string>;
  currentPath: string | null;
  /** Container path → index of the child on the way to the current match. */
  reveal: ReadonlyMap<string, number>;
}
interface Crumb {
  label: string;
  path: string;
}
const Tree = createContext<TreeState>({ selectedPath: null, select: () => undefined, matchPaths: new Set(), currentPath: null, reveal: new Map() });

export const CHUNK = 100;
export const STRING_PREVIEW = 300;
const STRING_STEP = 10_000;

export type CopyFn = (text: string, what: string) => void;

interface Ancestor {
  value: unknown;
  path: string;
  label: string;
}

interface NodeProps {
  name: string | null;
  value: unknown;
  path: string;
  depth: number;
  ancestors: readonly Ancestor[];
  onCopy: CopyFn;
  /** Containers shallower than this start open (expand all / collapse all). */
  openDepth: number;
}

function LongString({ text }: { text: string }) {
  const [shown, setShown] = useState(STRING_PREVIEW);
  const clipped = text.length > shown;
  return (
    <span class="mr-json-string">
      "{clipped ? text.slice(0, shown) : text}
      {clipped ? '…' : '"'}
      {clipped && (
        <>
          <span class="mr-muted"> ({text.length.toLocaleString()} chars) </span>
          <button class="mr-link" data-testid="json-show-more" onClick={() => setShown(shown + STRING_STEP)}>
            show more
          </button>
        </>
      )}
    </span>
  );
}

function Leaf({ value }: { value: unknown }) {
  const kind = kindOf(value);
  if (kind === 'string') return <LongString text={value as string} />;
  return <span class={`mr-json-${kind}`}>{preview(value, 200)}</span>;
}

function CopyButtons({ value, path, onCopy }: { value: unknown; path: string; onCopy: CopyFn }) {
  return (
    <span class="mr-json-actions">
      <button class="mr-link" title="Copy value as JSON" data-testid="copy-value" onClick={() => onCopy(safeStringify(value, { indent: 2 }), 'value')}>
        copy
      </button>
      <button class="mr-link" title="Copy path" data-testid="copy-path" onClick={() => onCopy(path, 'path')}>
        path
      </button>
    </span>
  );
}

/** A range of children [start, end): a leaf range renders nodes, a wide one nests ranges. */
function Range(props: { start: number; end: number; parent: NodeProps; open: boolean }) {
  const { start, end, parent } = props;
  const [open, setOpen] = useState(props.open);
  const tree = useContext(Tree);
  const onTheWay = tree.reveal.get(parent.path);
  // The current search match lies in this range: open it (and it stays open).
  useEffect(() => {
    if (onTheWay !== undefined && onTheWay >= start && onTheWay < end && !open) setOpen(true);
  }, [onTheWay]);
  const kind = kindOf(parent.value);
  const span = end - start;
  let body = null;
  if (open) {
    if (span <= CHUNK) {
      const ancestors = [...parent.ancestors, { value: parent.value, path: parent.path, label: parent.name ?? parent.path }];
      body = childrenSlice(parent.value, kind, start, end).map((c) => (
        <JsonNode
          key={c.key}
          name={c.key}
          value={c.value}
          path={parent.path + c.access}
          depth={parent.depth + 1}
          ancestors={ancestors}
          onCopy={parent.onCopy}
          openDepth={parent.openDepth}
        />
      ));
    } else {
      let size = CHUNK;
      while (size * CHUNK < span) size *= CHUNK;
      const ranges = [];
      for (let s = start; s < end; s += size) {
        ranges.push(<Range key={s} start={s} end={Math.min(end, s + size)} parent={parent} open={false} />);
      }
      body = ranges;
    }
  }
  if (props.open && start === 0) return <div class="mr-json-children">{body}</div>;
  return (
    <div class="mr-json-range">
      <button class="mr-json-toggle" data-testid="json-range" onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'} [{start} … {end - 1}]
      </button>
      {open && <div class="mr-json-children">{body}</div>}
    </div>
  );
}

export function JsonNode(props: NodeProps) {
  const { name, value, depth, ancestors, path, onCopy } = props;
  const kind = kindOf(value);
  const [open, setOpen] = useState(depth < props.openDepth);
  const tree = useContext(Tree);
  const onTheWay = tree.reveal.has(path);
  useEffect(() => {
    if (onTheWay && !open) setOpen(true);
  }, [onTheWay]);
  const current = tree.currentPath === path;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (current) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);
  const trail = () => [...ancestors.map((a) => ({ label: a.label, path: a.path })), { label: name ?? path, path }];
  const marks = `${tree.matchPaths.has(path) ? ' mr-json-match' : ''}${current ? ' mr-json-current' : ''}${tree.selectedPath === path ? ' mr-json-selected' : ''}`;
  const label =
    name === null ? null : (
      <button type="button" class="mr-json-key mr-json-pick" data-testid="json-key" data-path={path} title={`${path} (select: breadcrumb)`} onClick={() => tree.select(trail())}>
        {name}:{' '}
      </button>
    );
  if (!isContainer(kind)) {
    return (
      <div class={`mr-json-node${marks}`} data-depth={depth} data-path={path} ref={ref}>
        <span class="mr-json-toggle-spacer" />
        {label}
        <Leaf value={value} />
        <CopyButtons value={value} path={path} onCopy={onCopy} />
      </div>
    );
  }
  const cycle = ancestors.find((a) => a.value === value);
  if (cycle) {
    return (
      <div class={`mr-json-node${marks}`} data-depth={depth} data-path={path} ref={ref}>
        <span class="mr-json-toggle-spacer" />
        {label}
        <span class="mr-json-circular" data-testid="json-circular">[Circular → {cycle.path}]</span>
      </div>
    );
  }
  const count = childCount(value, kind);
  return (
    <div class={`mr-json-node${marks}`} data-depth={depth} data-path={path} ref={ref}>
      <button class="mr-json-toggle" data-testid="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {count === 0 ? ' ' : open ? '▾' : '▸'}
      </button>
      {label}
      <span class="mr-json-summary">{preview(value, 80)}</span>
      <CopyButtons value={value} path={path} onCopy={onCopy} />
      {open && count > 0 && <Range start={0} end={count} parent={props} open={true} />}
    </div>
  );
}

/** How deep "expand all" opens: deeper nesting still opens one level at a time, so 10,000 levels cost nothing. */
export const EXPAND_ALL_DEPTH = 8;

export function JsonTree({ value, rootPath, onCopy }: { value: unknown; rootPath: string; onCopy: CopyFn }) {
  // Each press remounts the tree with every node starting open (or closed) to that depth.
  const [view, setView] = useState({ depth: 1, tick: 0 });
  const [trail, setTrail] = useState<readonly Crumb[]>([]);
  const [query, setQuery] = useState('');
  const [at, setAt] = useState(0);
  const found = useMemo(() => searchPayload(value, rootPath, query), [value, rootPath, query]);
  const matches = found.matches;
  const current = matches.length > 0 ? matches[Math.min(at, matches.length - 1)] : null;
  const reveal = useMemo(() => new Map((current?.steps ?? []).map((s) => [s.parentPath, s.index] as const)), [current]);
  const matchPaths = useMemo(() => new Set(matches.map((m) => m.path)), [matches]);
  // The current match is also the selection: the breadcrumb names where it is.
  useEffect(() => {
    if (current) setTrail(current.trail);
  }, [current]);
  const step = (by: number) => matches.length > 0 && setAt((i) => (Math.min(i, matches.length - 1) + by + matches.length) % matches.length);
  const selectedPath = trail.length > 0 ? trail[trail.length - 1].path : null;
  const state: TreeState = { selectedPath, select: setTrail, matchPaths, currentPath: current?.path ?? null, reveal };
  return (
    <div class="mr-json" data-testid="json-tree">
      <div class="mr-json-tools">
        <button class="mr-link" data-testid="json-expand-all" title={`Open every level down to ${EXPAND_ALL_DEPTH}`} onClick={() => setView({ depth: EXPAND_ALL_DEPTH, tick: view.tick + 1 })}>
          expand all
        </button>
        <button class="mr-link" data-testid="json-collapse-all" title="Close every level" onClick={() => setView({ depth: 0, tick: view.tick + 1 })}>
          collapse all
        </button>
        <input
          class="mr-filter mr-json-find"
          type="search"
          placeholder="Find in payload"
          aria-label="Find in payload (Enter: next, Shift+Enter: previous)"
          data-testid="json-find"
          value={query}
          onInput={(e) => {
            setQuery((e.currentTarget as HTMLInputElement).value);
            setAt(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              step(e.shiftKey ? -1 : 1);
            }
          }}
        />
        {query.trim() !== '' && (
          <>
            <span class="mr-muted" data-testid="json-find-count" aria-live="polite">
              {matches.length === 0 ? 'no match' : `${Math.min(at, matches.length - 1) + 1} of ${matches.length}${found.truncated ? '+' : ''}`}
            </span>
            <button class="mr-link" data-testid="json-find-prev" aria-label="Previous match" title="Previous match (Shift+Enter)" disabled={matches.length === 0} onClick={() => step(-1)}>
              ▲
            </button>
            <button class="mr-link" data-testid="json-find-next" aria-label="Next match" title="Next match (Enter)" disabled={matches.length === 0} onClick={() => step(1)}>
              ▼
            </button>
          </>
        )}
      </div>
      <nav class="mr-json-crumbs" aria-label="Selected node" data-testid="json-breadcrumb">
        {trail.length === 0 ? (
          <span class="mr-muted">select a key to see its path</span>
        ) : (
          trail.map((c, i) => (
            <span key={c.path}>
              {i > 0 && <span class="mr-muted"> › </span>}
              <button class="mr-link" data-testid="json-crumb" data-path={c.path} title={c.path} onClick={() => setTrail(trail.slice(0, i + 1))}>
                {c.label}
              </button>
            </span>
          ))
        )}
        {selectedPath !== null && (
          <button class="mr-link mr-json-crumb-copy" data-testid="json-crumb-copy" title="Copy the selected node's path" onClick={() => onCopy(selectedPath, 'path')}>
            copy path
          </button>
        )}
      </nav>
      <Tree.Provider value={state}>
        <JsonNode key={view.tick} name={null} value={value} path={rootPath} depth={0} ancestors={[]} onCopy={onCopy} openDepth={view.depth} />
      </Tree.Provider>
    </div>
  );
}
