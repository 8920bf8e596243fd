import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import { replaceSecretFile, type SecretStore, setSecretFileAside } from '../core';
import { AppError } from '../shared/errors';
import { keysProtected, UNPROTECTED_KEYS_MESSAGE } from './key-protection';

/**
 * API keys for the desktop app: one JSON object encrypted with Electron
 * safeStorage (the OS keychain's key) in the data directory, owner-only.
 * Only usable after the app is ready. The desktop app's SecretStore
 * (src/core/secrets/store.ts), handed to the core at start.
 */
export class SafeStorageSecretStore implements SecretStore {
  private readonly path: string;

  /** onDamaged: told what was moved aside when the file cannot be decrypted or read, in words for the person. */
  constructor(
    dataDir: string,
    private readonly onDamaged: (message: string) => void = () => undefined,
  ) {
    this.path = join(dataDir, 'secrets.enc');
  }

  describe(): string {
    const how =
      process.platform === 'darwin'
        ? 'with a key from your macOS Keychain'
        : process.platform === 'win32'
          ? 'with Windows DPAPI (tied to your Windows login)'
          : 'with a key from your desktop keyring (GNOME Keyring or KWallet)';
    return `Encrypted ${how}, in ${this.path}.`;
  }

  private read(): Record<string, string> {
    if (!existsSync(this.path)) return {};
    if (!safeStorage.isEncryptionAvailable()) {
      throw new AppError('not_configured', 'The system keychain is not available, so stored API keys cannot be read.');
    }
    try {
      const parsed: unknown = JSON.parse(safeStorage.decryptString(readFileSync(this.path)));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, string>;
    } catch {
      // Damaged, or encrypted with another keychain key: kept beside, never deleted.
    }
    const aside = setSecretFileAside(this.path);
    this.onDamaged(
      `The file holding your API keys (secrets.enc) could not be read; it was moved to ${aside}. Please enter your API keys again in Settings.`,
    );
    return {};
  }

  async get(name: string): Promise<string | null> {
    return this.read()[name] ?? null;
  }

  async set(name: string, value: string | null): Promise<void> {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new AppError('not_configured', 'The system keychain is not available, so the API key cannot be stored safely.');
    }
    const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : null;
    if (value !== null && !keysProtected(process.platform, backend)) throw new AppError('not_configured', UNPROTECTED_KEYS_MESSAGE);
    const all = this.read();
    if (value === null) delete all[name];
    else all[name] = value;
    replaceSecretFile(this.path, safeStorage.encryptString(JSON.stringify(all)));
  }
}
