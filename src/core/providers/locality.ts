// The local-only guard (docs/privacy.md): a persona marked local-only sends its
// content only to the built-in embedder or to a server on this computer. Every
// provider a call carrying a persona's content obtains passes through
// `checkLocality` first — chatProviderFrom (chat, review, flush, recall's query
// rewrite) and the embedding service (queries, the embedding queue) — so a
// cloud provider is refused before any request is made.
import { AppError } from '../../shared/errors';
import { OPENAI_API_URL } from '../../shared/key-owner';

/** What a call knows of the persona whose content it carries. */
export interface PersonaPrivacy {
  id: string;
  name: string;
  localOnly: boolean;
}

/**
 * Whose content a provider call carries: a persona's, or `'no-persona'` for a
 * call that carries none (Settings' connection test). Required wherever a
 * provider is obtained, so no caller can leave it out by accident.
 */
export type ContentScope = PersonaPrivacy | 'no-persona';

/**
 * True when `url` names this computer by a loopback address (127.0.0.0/8, ::1,
 * ::ffff:127.x.x.x) or `localhost`. No DNS: a name that merely resolves to
 * loopback could resolve elsewhere tomorrow. `0.0.0.0` and `::` are not
 * loopback (a listening address; what connecting to them reaches depends on
 * the system), so they are refused with the hint to use 127.0.0.1.
 */
export function isThisComputer(url: string | null): boolean {
  if (url === null) return false;
  let host: string;
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
    // The WHATWG parser lower-cases the name and writes any IPv4 form (0x7f.1, 2130706433, "127.0.0.1.") as a dotted quad.
    host = u.hostname;
  } catch {
    return false;
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === 'localhost') return true;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return host.split('.')[0] === '127';
  if (host.startsWith('[') && host.endsWith(']')) return isLoopbackV6(host.slice(1, -1));
  return false;
}

/** ::1, or an IPv4-mapped 127.x address (the parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1). */
function isLoopbackV6(a: string): boolean {
  if (a === '::1') return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(a);
  if (mapped) return (parseInt(mapped[1]!, 16) >> 8) === 127;
  const dotted = /^::ffff:(\d+)\.\d+\.\d+\.\d+$/.exec(a);
  return dotted ? dotted[1] === '127' : false;
}

/** The host a person recognises in a message ("api.openai.com", "192.168.1.5:11434"). */
export function hostOf(url: string | null): string {
  try {
    return new URL(url ?? OPENAI_API_URL).host;
  } catch {
    return String(url).slice(0, 100);
  }
}

export type ProviderRole = 'chat' | 'embeddings';

/** The sentence the persona editor shows when a role's provider is not on this computer. */
export function localOnlyWarning(role: ProviderRole, personaName: string, where: string | null): string {
  return role === 'chat'
    ? `Chat uses ${hostOf(where)}: chats in “${personaName}” (and its memory review, compaction and search help) will be refused until you choose a chat model on this computer in Settings → Chat model.`
    : `Embeddings use ${hostOf(where)}: “${personaName}”’s memories and documents will not be embedded (search works by text only) until you choose the built-in embedder or a server on this computer in Settings → Embeddings.`;
}

/**
 * Throws `local_only` when `scope` is a local-only persona and the provider's
 * base URL (`where`; null for the built-in embedder when `builtIn`) is not this computer.
 */
export function checkLocality(scope: ContentScope, role: ProviderRole, where: string | null, builtIn = false): void {
  if (scope === 'no-persona' || !scope.localOnly || builtIn || isThisComputer(where)) return;
  const what = role === 'chat' ? 'chat model' : 'embedding provider';
  const fix =
    role === 'chat'
      ? 'Choose a chat model on this computer (a base URL such as http://127.0.0.1:11434/v1) in Settings → Chat model'
      : 'Choose the built-in embedder or a server on this computer in Settings → Embeddings';
  throw new AppError(
    'local_only',
    `“${scope.name}” is local-only, so its content goes only to this computer, but the ${what} is at ${hostOf(where)}. ` +
      `${fix}, or turn off “Local only” in ${scope.name}’s settings. Nothing was sent.`,
    { retryable: false },
  );
}
