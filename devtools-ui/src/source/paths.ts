// Paths arrive either local ("/user/a") or full ("mailroom://sys/user/a");
// the panel compares and filters on the local form.

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i;

export function localPath(path: string): string {
  const stripped = path.replace(SCHEME, '');
  if (stripped === '') return '/';
  return stripped.length > 1 && stripped.endsWith('/') ? stripped.slice(0, -1) : stripped;
}

/** True when `path` is `root` or lies below it. */
export function inSubtree(path: string, root: string): boolean {
  const p = localPath(path);
  const r = localPath(root);
  if (r === '/' || p === r) return true;
  return p.startsWith(r + '/');
}

export function lastSegment(path: string): string {
  const p = localPath(path);
  return p.slice(p.lastIndexOf('/') + 1) || '/';
}

export function parentPath(path: string): string {
  const p = localPath(path);
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}
