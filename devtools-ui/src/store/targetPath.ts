// Checks a redirect target as the user types, naming each problem. The rules
// are the core's (ActorPath::is_valid_name, is_user_actor, through the mirror in
// ../paths); the runtime still has the last word and answers
// unresolved-recipient for anything it cannot reach.
import { isUserActor, isValidName, MAX_NAME_LENGTH } from '../paths';

export type TargetProblem = 'empty' | 'malformed' | 'relative' | 'outside-user';

export interface TargetCheck {
  /** The local form ("/user/a") when the text is well formed, else null. */
  local: string | null;
  problem: TargetProblem | null;
  message: string | null;
}

const MAILROOM_URI = /^mailroom:\/\/([^/]*)(\/.*)?$/i;
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Why a name breaks the core's rules (null when it does not). */
function badSegment(name: string): string | null {
  if (isValidName(name)) return null;
  if (name === '') return 'an empty segment (//)';
  if (name.startsWith('$')) return `"${name}" starts with '$' (reserved)`;
  if (name.length > MAX_NAME_LENGTH) return 'a name longer than 255 characters';
  return `whitespace in "${name}"`;
}

export function checkTargetPath(text: string): TargetCheck {
  if (text.trim() === '') return { local: null, problem: 'empty', message: 'Enter a target path, e.g. /user/checkout.' };
  // The text is sent as typed, so spaces around it are named, not trimmed away here.
  if (text !== text.trim()) {
    return { local: null, problem: 'malformed', message: 'Malformed path: spaces before or after it (the runtime would not find it).' };
  }
  const raw = text;
  let local = raw;
  const uri = MAILROOM_URI.exec(raw);
  if (uri) local = uri[2] ?? '';
  else if (OTHER_SCHEME.test(raw)) {
    return { local: null, problem: 'malformed', message: `Malformed path: only mailroom://<system>/user/… or /user/… is understood.` };
  }
  if (!local.startsWith('/')) {
    return { local: null, problem: 'relative', message: 'Relative path: a target starts at the root, e.g. /user/checkout.' };
  }
  const segments = local.slice(1).split('/');
  if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
  if (segments.some((s) => s === '.' || s === '..')) {
    return { local: null, problem: 'relative', message: 'Relative path: "." and ".." are not resolved; write the full path from /user.' };
  }
  for (const s of segments) {
    const why = badSegment(s);
    if (why) return { local: null, problem: 'malformed', message: `Malformed path: ${why}.` };
  }
  const normal = '/' + segments.join('/');
  if (!isUserActor(normal)) {
    return {
      local: normal,
      problem: 'outside-user',
      message: `${normal} is not a user actor: replay only delivers to actors under /user (system actors and the guardians are not targets).`,
    };
  }
  return { local: normal, problem: null, message: null };
}
