import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretStore } from '../context';

/**
 * Secrets for the browser host: a JSON file readable by the owner only (0600)
 * in the data directory. Electron uses safeStorage instead (src/main).
 */
export class FileSecretStore implements SecretStore {
  private readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, 'secrets.json');
  }

  describe(): string {
    return `Not encrypted: kept in ${this.path}, a file only your user account can read.`;
  }

  private read(): Record<string, string> {
    if (!existsSync(this.path)) return {};
    return JSON.parse(readFileSync(this.path, 'utf8')) as Record<string, string>;
  }

  async get(name: string): Promise<string | null> {
    return this.read()[name] ?? null;
  }

  async set(name: string, value: string | null): Promise<void> {
    const all = this.read();
    if (value === null) delete all[name];
    else all[name] = value;
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, JSON.stringify(all), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.path);
  }
}

/** Secrets kept in memory only: for an in-memory core. */
export class MemorySecretStore implements SecretStore {
  describe(): string {
    return 'Kept in memory only, for this run.';
  }

  private values = new Map<string, string>();
  async get(name: string): Promise<string | null> {
    return this.values.get(name) ?? null;
  }
  async set(name: string, value: string | null): Promise<void> {
    if (value === null) this.values.delete(name);
    else this.values.set(name, value);
  }
}
