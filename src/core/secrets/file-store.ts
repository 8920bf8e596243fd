import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { join } from 'node:path';
import { replaceSecretFile, type SecretStore, setSecretFileAside } from './store';

/**
 * Secrets for the browser host: a JSON file readable by the owner only (0600)
 * in the data directory. Electron uses safeStorage instead (src/main).
 */
const secretsFile = z.record(z.string(), z.string());

export class FileSecretStore implements SecretStore {
  private readonly path: string;

  /** onDamaged: told (once per damaged file) what was moved aside, in words for the person. */
  constructor(
    dataDir: string,
    private readonly onDamaged: (message: string) => void = () => undefined,
  ) {
    this.path = join(dataDir, 'secrets.json');
  }

  describe(): string {
    return `Not encrypted: kept in ${this.path}, a file only your user account can read.`;
  }

  private read(): Record<string, string> {
    if (!existsSync(this.path)) return {};
    const text = readFileSync(this.path, 'utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const ok = secretsFile.safeParse(parsed);
    if (ok.success) return ok.data;
    // Never lost, never a raw SyntaxError: the file is kept beside, and the keys are asked for again.
    const aside = setSecretFileAside(this.path);
    this.onDamaged(
      `The file holding your API keys (secrets.json) was damaged; it was moved to ${aside}. ` +
        'Please enter your API keys again in Settings.',
    );
    return {};
  }

  async get(name: string): Promise<string | null> {
    return this.read()[name] ?? null;
  }

  async set(name: string, value: string | null): Promise<void> {
    const all = this.read();
    if (value === null) delete all[name];
    else all[name] = value;
    replaceSecretFile(this.path, JSON.stringify(all));
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
