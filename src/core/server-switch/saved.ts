// The server chosen in Settings → Data. Its URL carries a password, so it is
// kept in the secret store beside the API keys (Electron: encrypted with the
// OS keychain; browser host: a 0600 file) and never sent back to a page: the
// UI sees user@host:port/database only (docs/server-mode.md).
import type { SecretStore } from '../context';
import { describeServer, parseDatabaseUrl } from '../db/server-url';

export const SECRET_DATABASE_URL = 'database.url';

export async function readSavedUrl(secrets: SecretStore): Promise<string | null> {
  return (await secrets.get(SECRET_DATABASE_URL))?.trim() || null;
}

export async function saveUrl(secrets: SecretStore, url: string | null): Promise<void> {
  await secrets.set(SECRET_DATABASE_URL, url);
}

/** user@host:port/database of a saved URL; a URL that no longer parses is named as such, never shown. */
export function describeSaved(url: string): string {
  try {
    return describeServer(parseDatabaseUrl(url).address);
  } catch {
    return '(a saved server URL that cannot be read)';
  }
}

/** How this start chose its database, for Settings → Data. */
export interface DatabaseChoice {
  /** Where the URL in use came from: a start option (flag/environment), the saved setting, or none (this computer). */
  source: 'start-option' | 'settings' | null;
  /** The saved server could not be used at start: why (this computer's data was opened instead). */
  savedFailed: string | null;
}
