// The core's path vocabulary (core ActorPath), mirrored for the panel and
// pinned to it by one case table (tests/parity/path_cases.json, read by the
// native and the panel tests). Local paths are "/user/a/b"; full paths are
// "<scheme>://<system>/user/a/b". Change the two together.

export const MAX_NAME_LENGTH = 255;

// C++ isspace in the "C" locale, not JS \s (which also matches Unicode spaces).
const WHITESPACE = /[ \t\n\v\f\r]/;

/** Non-empty, at most 255 characters, no '/', no whitespace, not starting with '$', not '.' or '..'. */
export function isValidName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && name.length <= MAX_NAME_LENGTH && !name.startsWith('$') && !name.includes('/') && !WHITESPACE.test(name);
}

/** "mailroom://<system><local>" */
export function full(system: string, local: string): string {
  return `mailroom://${system}${local}`;
}

/** A full path's scheme, system and rest, or null for anything else. */
function splitFull(path: string): { system: string; rest: string } | null {
  const schemeEnd = path.indexOf('://');
  if (schemeEnd <= 0 || path.slice(0, schemeEnd).includes('/')) return null;
  const after = path.slice(schemeEnd + 3);
  const slash = after.indexOf('/');
  return slash < 0 ? { system: after, rest: '/' } : { system: after.slice(0, slash), rest: after.slice(slash) };
}

/** The system a full path names; '' for a local (or malformed) path. */
export function systemOf(path: string): string {
  return splitFull(path)?.system ?? '';
}

/**
 * The local spelling of a path: "/user/a" as given, or a full path of
 * `system` (of any named system when `system` is omitted); trailing '/'
 * dropped. Anything else (another system, no leading '/', '//') gives ''.
 */
export function toLocal(path: string, system?: string): string {
  const parts = splitFull(path);
  if (parts) {
    if (system === undefined ? parts.system === '' : parts.system !== system) return '';
    path = parts.rest;
  } else if (path.includes('://')) {
    return '';
  }
  if (!path.startsWith('/')) return '';
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end -= 1;
  path = path.slice(0, end);
  return path.includes('//') ? '' : path;
}

/** A child's local path: child('/user', 'a') is '/user/a'. */
export function child(parent: string, name: string): string {
  return parent === '/' ? `/${name}` : `${parent}/${name}`;
}

/** The parent of a local path ('/' for '/' and the guardians). */
export function parentOf(local: string): string {
  const i = local.lastIndexOf('/');
  return i <= 0 ? '/' : local.slice(0, i);
}

/** The last name of a local path ('' for '/'). */
export function nameOf(local: string): string {
  return local.slice(local.lastIndexOf('/') + 1);
}

/** The names of a local path: '/user/a' is ['user', 'a'], '/' is []. */
export function elements(local: string): string[] {
  return local.split('/').filter((s) => s !== '');
}

/** `path` is `root` or below it, on a name boundary (both local); root '/' (or '', no restriction) holds every non-empty path. */
export function inSubtree(path: string, root: string): boolean {
  if (root === '' || root === '/') return path !== '';
  return path === root || (path.startsWith(root) && path[root.length] === '/');
}

/** An actor under /user (what replay delivers to), not /user itself. */
export function isUserActor(local: string): boolean {
  const names = elements(local);
  return names.length >= 2 && names[0] === 'user';
}

/**
 * For display and typed text: the local spelling of a path of any system,
 * or the text as given when it is not a well-formed path.
 */
export function localPath(path: string): string {
  return toLocal(path) || path;
}
