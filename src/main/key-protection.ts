/**
 * Whether safeStorage really protects the keys. On Linux without a keyring
 * (no GNOME Keyring / KWallet) Electron falls back to `basic_text`: a fixed,
 * publicly known key, so an encrypted file is as readable as plain text.
 * Hearth then refuses to write keys to disk rather than pretend.
 */
export function keysProtected(platform: NodeJS.Platform, backend: string | null): boolean {
  return platform !== 'linux' || (backend !== null && backend !== 'basic_text' && backend !== 'unknown');
}

export const UNPROTECTED_KEYS_MESSAGE =
  'This computer has no system keyring that Electron can use (GNOME Keyring or KWallet), so an API key saved by Hearth would be readable by anyone who can read your files. Hearth does not store it. Install and unlock a keyring, then enter the key again — or use a local model server that needs no key.';
