import { resolve } from 'node:path';
import { dataDirFlag, databaseUrlFrom, defaultDataDir, personaId } from '../core';

export interface StdioArgs {
  persona: string;
  dataDir: string;
  readOnly: boolean;
  /** The data on a PostgreSQL server (HEARTH_DATABASE_URL / --database-url), else null. */
  databaseUrl: string | null;
}

export const USAGE = 'Usage: npm run -s mcp -- --persona <id> [--data-dir DIR] [--database-url URL] [--read-only]';

/** `--persona <id> [--data-dir DIR] [--read-only]`; the data folder as the app finds it otherwise. */
export function parseStdioArgs(argv: readonly string[], env: NodeJS.ProcessEnv): StdioArgs | string {
  let persona: string | null = null;
  let readOnly = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--persona') persona = argv[++i] ?? null;
    else if (a.startsWith('--persona=')) persona = a.slice('--persona='.length);
    else if (a === '--read-only') readOnly = true;
    else if (a === '--data-dir' || a === '--database-url') i++;
    else if (!a.startsWith('--data-dir=') && !a.startsWith('--database-url=')) return `Unknown argument "${a.slice(0, 80)}". ${USAGE}`;
  }
  if (persona === null) return `Name the persona this connection may use. ${USAGE}`;
  if (!personaId.safeParse(persona).success) return `"${persona.slice(0, 80)}" is not a persona id (lowercase letters, digits, - or _). ${USAGE}`;
  const dataDir = resolve(dataDirFlag(argv) ?? (env.HEARTH_DATA_DIR || defaultDataDir(env)));
  return { persona, dataDir, readOnly, databaseUrl: databaseUrlFrom(argv, env) };
}
