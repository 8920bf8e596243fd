import { z } from 'zod';
import type { SecretStore } from '../context';
import { newToken } from './endpoint';

// The desktop app's MCP listener keeps one token and one port per install, so
// an HTTP client configured once keeps working across restarts. Kept in the
// secret store (docs/security.md), never in the database; the user can rotate
// the token in Settings → Connections.
const SECRET = 'mcpHttp';
const stored = z.object({ token: z.string().min(32).max(200), port: z.number().int().min(0).max(65535) }).strict();
export type HttpCredentials = z.infer<typeof stored>;

/**
 * The stored token and port, made on first use. Where secrets cannot be kept
 * (Linux without a keyring, docs/security.md) the listener still works, with a
 * token for this launch only.
 */
export async function loadHttpCredentials(secrets: SecretStore): Promise<HttpCredentials> {
  let raw: string | null = null;
  try {
    raw = await secrets.get(SECRET);
  } catch (e) {
    console.error(`Hearth MCP: could not read the stored HTTP token (${(e as Error).message}); using one for this launch.`);
    return { token: newToken(), port: 0 };
  }
  if (raw) {
    try {
      const ok = stored.safeParse(JSON.parse(raw));
      if (ok.success) return ok.data;
    } catch {
      // not JSON: made again below
    }
  }
  const fresh = { token: newToken(), port: 0 };
  await saveHttpCredentials(secrets, fresh);
  return fresh;
}

export async function saveHttpCredentials(secrets: SecretStore, c: HttpCredentials): Promise<void> {
  try {
    await secrets.set(SECRET, JSON.stringify(c));
  } catch (e) {
    console.error(`Hearth MCP: could not store the HTTP token (${(e as Error).message}); it lasts for this launch only.`);
  }
}
