// Finds the nodes of a payload whose key or (leaf) value contains a text, in the
// order the tree shows them, so the tree can step through the matches and open
// the way to each. Bounded (nodes visited, depth, matches) and cycle-safe, like
// the tree itself: a hostile payload costs at most MAX_NODES visits.
import { childCount, childrenSlice, isContainer, kindOf, preview } from './values';

export const MAX_NODES = 20_000;
export const MAX_DEPTH = 32;
export const MAX_MATCHES = 1_000;

export interface Step {
  /** The container's path and the index of the child on the way. */
  parentPath: string;
  index: number;
}

export interface PayloadMatch {
  path: string;
  /** The containers to open, outermost first. */
  steps: readonly Step[];
  /** Key and name of each node from the root: the breadcrumb. */
  trail: readonly { label: string; path: string }[];
}

export interface SearchResult {
  matches: PayloadMatch[];
  /** True when a bound stopped the walk: there may be more matches. */
  truncated: boolean;
}

function leafText(value: unknown): string {
  return typeof value === 'string' ? value : preview(value, 200);
}

export function searchPayload(root: unknown, rootPath: string, query: string): SearchResult {
  const q = query.trim().toLowerCase();
  const matches: PayloadMatch[] = [];
  if (q === '') return { matches, truncated: false };
  let visited = 0;
  let truncated = false;
  const onPath = new Set<unknown>();
  const walk = (value: unknown, name: string | null, path: string, steps: Step[], trail: { label: string; path: string }[], depth: number) => {
    if (visited++ >= MAX_NODES || matches.length >= MAX_MATCHES) {
      truncated = true;
      return;
    }
    const kind = kindOf(value);
    const here = [...trail, { label: name ?? rootPath, path }];
    const container = isContainer(kind);
    const hit = (name !== null && name.toLowerCase().includes(q)) || (!container && leafText(value).toLowerCase().includes(q));
    if (hit) matches.push({ path, steps, trail: here });
    if (!container || onPath.has(value)) return;
    if (depth >= MAX_DEPTH) {
      truncated = true;
      return;
    }
    onPath.add(value);
    const count = childCount(value, kind);
    const children = childrenSlice(value, kind, 0, Math.min(count, MAX_NODES - visited + 1));
    if (children.length < count) truncated = true;
    children.forEach((c, i) => walk(c.value, c.key, path + c.access, [...steps, { parentPath: path, index: i }], here, depth + 1));
    onPath.delete(value);
  };
  walk(root, null, rootPath, [], [], 0);
  return { matches, truncated };
}
