import { chmodSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Where API keys and tokens are kept. Two stores implement it side by side:
 * the data folder's file (file-store.ts: the browser host, the MCP stdio
 * server) and the desktop app's, encrypted with the system keychain
 * (src/main/safe-storage-secrets.ts), which the app hands to the core at start.
 */
export interface SecretStore {
  get(name: string): Promise<string | null>;
  set(name: string, value: string | null): Promise<void>;
  /** Where the keys are kept, in words for Settings (e.g. "encrypted with your macOS Keychain"). */
  describe(): string;
}

/** Replaces a store's file whole (a private temporary file, then rename): a crash leaves the old file or the new one. */
export function replaceSecretFile(path: string, contents: string | Buffer): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, contents, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** A file a store cannot read is kept beside, never deleted (docs/data-safety.md); returns where it went. */
export function setSecretFileAside(path: string): string {
  const aside = `${path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(path, aside);
  return aside;
}
