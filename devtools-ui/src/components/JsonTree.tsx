// The payload as an expandable tree. Rendering is lazy (a node's children exist
// only once it is opened), big containers are chunked, long strings truncated,
// cycles detected, and every value is rendered as text — never as markup.
import { useState } from 'preact/hooks';
import { childCount, childrenSlice, isContainer, kindOf, preview } from '../payload/values';
import { safeStringify } from '../payload/serialize';

export const CHUNK = 100;
export const STRING_PREVIEW = 300;
const STRING_STEP = 10_000;

export type CopyFn = (text: string, what: string) => void;

interface Ancestor {
  value: unknown;
  path: string;
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
  const kind = kindOf(parent.value);
  const span = end - start;
  let body = null;
  if (open) {
    if (span <= CHUNK) {
      const ancestors = [...parent.ancestors, { value: parent.value, path: parent.path }];
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
  const label = name === null ? null : <span class="mr-json-key">{name}: </span>;
  if (!isContainer(kind)) {
    return (
      <div class="mr-json-node" data-depth={depth}>
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
      <div class="mr-json-node" data-depth={depth}>
        <span class="mr-json-toggle-spacer" />
        {label}
        <span class="mr-json-circular" data-testid="json-circular">[Circular → {cycle.path}]</span>
      </div>
    );
  }
  const count = childCount(value, kind);
  return (
    <div class="mr-json-node" data-depth={depth}>
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
  return (
    <div class="mr-json" data-testid="json-tree">
      <div class="mr-json-tools">
        <button class="mr-link" data-testid="json-expand-all" title={`Open every level down to ${EXPAND_ALL_DEPTH}`} onClick={() => setView({ depth: EXPAND_ALL_DEPTH, tick: view.tick + 1 })}>
          expand all
        </button>
        <button class="mr-link" data-testid="json-collapse-all" title="Close every level" onClick={() => setView({ depth: 0, tick: view.tick + 1 })}>
          collapse all
        </button>
      </div>
      <JsonNode key={view.tick} name={null} value={value} path={rootPath} depth={0} ancestors={[]} onCopy={onCopy} openDepth={view.depth} />
    </div>
  );
}
