// HEARTH_DATABASE_URL / --database-url, or the URL typed in Settings → Data: a
// PostgreSQL connection URL (postgres://user:password@host:5432/database?sslmode=require).
// TLS follows the URL's sslmode as node-postgres reads it. The password never
// leaves this module's config: messages name the server as user@host:port/database.
//
// Where the URL came from decides what it may name on this computer
// (docs/security.md, "The page cannot make Hearth read the disk"): node-postgres
// reads `sslrootcert`, `sslcert` and `sslkey` with a synchronous readFileSync
// (a FIFO freezes the process, /dev/zero fills memory, a missing file answers
// differently from an existing one), connects to a Unix socket named by `host`,
// and looks for a password in PGPASSWORD and ~/.pgpass. A URL from the page
// (Settings: `database.test`, `database.copyAndSwitch`, and the URL they save)
// may name none of that. A start option is the operator's own: its files are
// read here, asynchronously, regular files only, before node-postgres sees the URL.
import { readFile } from 'node:fs/promises';
import { type ConnectionOptions, parse } from 'pg-connection-string';
import type { ClientConfig } from 'pg';
import { AppError } from '../../shared/errors';
import { openRegularFile } from '../parse/regular-file';

export interface ServerAddress {
  host: string;
  port: number;
  user: string;
  database: string;
}

/** `settings`: typed in a page (or saved from one); `start-option`: the launch option or the environment. */
export type UrlSource = 'settings' | 'start-option';

export interface ParsedDatabaseUrl {
  /** What node-postgres connects with, without any file to read (see `connectionConfig`). */
  config: ClientConfig;
  address: ServerAddress;
  /** `pool_max=N` in the URL: how many connections the pool may hold (Hearth's parameter, not sent to the server). */
  poolMax?: number;
  /** Certificate and key files a start option names, read by `connectionConfig`. */
  files: Partial<Record<TlsFile, string>>;
}

export function describeServer(a: ServerAddress): string {
  return `${a.user}@${a.host}:${a.port}/${a.database}`;
}

const EXAMPLE = 'postgres://user:password@host:5432/database';

/** The files node-postgres reads for TLS, and what each becomes in its `ssl` options. */
const TLS_FILES = { sslrootcert: 'ca', sslcert: 'cert', sslkey: 'key' } as const;
type TlsFile = keyof typeof TLS_FILES;

/** libpq's parameters that name something on this computer (node-postgres reads the first three). */
const LOCAL_PARAMETERS = new Set([
  ...Object.keys(TLS_FILES),
  'sslcrl',
  'sslcrldir',
  'sslpassword',
  'sslkeylogfile',
  'passfile',
  'service',
  'servicefile',
  'host',
  'hostaddr',
  'requirepeer',
]);

/** The parameters a URL from the page may carry: TLS modes and names, nothing that names a file or a socket. */
const PAGE_PARAMETERS = new Set(['sslmode', 'sslnegotiation', 'uselibpqcompat', 'ssl', 'application_name', 'connect_timeout', 'options', 'pool_max']);

/** A certificate or key file is a few kilobytes; a chain a few dozen. */
const TLS_FILE_LIMIT = 1024 * 1024;

function refuse(message: string): never {
  throw new AppError('database_server', message);
}

/**
 * Checks `raw` and splits it into what node-postgres connects with and the
 * files a start option names. Throws an AppError ('database_server') saying
 * what is wrong, never repeating the URL (it may hold a password).
 */
export function parseDatabaseUrl(raw: string, source: UrlSource = 'settings'): ParsedDatabaseUrl {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    refuse(`The database URL is not a URL. Expected the form ${EXAMPLE}.`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    refuse(`The database URL must start with postgres:// or postgresql:// (the form is ${EXAMPLE}).`);
  }
  if (!url.hostname) refuse(`The database URL names no host (the form is ${EXAMPLE}).`);
  const fromPage = source === 'settings';
  // A host name never holds a percent sign; an encoded one that starts with "/" is a Unix socket on this computer.
  if (fromPage && url.hostname.includes('%')) {
    refuse('A database URL typed in Settings names a server by its host name or address, not a socket on this computer. To use a local socket, start Hearth with --database-url (or HEARTH_DATABASE_URL).');
  }
  const names = [...new Set([...url.searchParams.keys()])];
  if (fromPage) {
    for (const name of names) {
      const key = name.toLowerCase();
      if (LOCAL_PARAMETERS.has(key)) {
        refuse(
          `The database URL's "${name}" names a file or socket on the computer running Hearth, which a URL typed in Settings may not: Hearth never reads this computer's files for a page. ` +
            'Use a server whose certificate a public authority signed (sslmode=verify-full), or start Hearth with --database-url (or HEARTH_DATABASE_URL) to use certificate files.',
        );
      }
      if (!PAGE_PARAMETERS.has(name)) {
        refuse(`The database URL's parameter "${name}" is not one Hearth uses. It accepts ${[...PAGE_PARAMETERS].join(', ')}.`);
      }
    }
  }
  let poolMax: number | undefined;
  const pool = url.searchParams.get('pool_max');
  if (pool !== null) {
    poolMax = Number(pool);
    if (!Number.isInteger(poolMax) || poolMax < 1 || poolMax > 100) {
      refuse('The database URL\'s pool_max must be a whole number from 1 to 100.');
    }
    url.searchParams.delete('pool_max');
  }
  // node-postgres would read these synchronously while parsing: they leave the URL, and connectionConfig reads them.
  const files: ParsedDatabaseUrl['files'] = {};
  for (const name of Object.keys(TLS_FILES) as TlsFile[]) {
    const path = url.searchParams.get(name);
    if (path !== null) files[name] = path;
    url.searchParams.delete(name);
  }
  const config = toClientConfig(url, files);
  if (fromPage && !config.password) {
    // Never PGPASSWORD or ~/.pgpass (node-postgres' fallbacks) for a server the page named: they would go to it.
    config.password = () => {
      throw new Error('the server asks for a password and the URL has none (put it in the URL: postgres://user:password@host/database)');
    };
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  const user = decodeURIComponent(url.username) || process.env.PGUSER || 'postgres';
  return {
    config,
    address: { host: url.hostname, port: url.port ? Number(url.port) : 5432, user, database },
    ...(poolMax !== undefined ? { poolMax } : {}),
    files,
  };
}

/** node-postgres' own reading of the URL (sslmode and the rest), with no file in it left to read. */
function toClientConfig(url: URL, files: ParsedDatabaseUrl['files']): ClientConfig {
  const compat = url.searchParams.get('uselibpqcompat') === 'true';
  const mode = url.searchParams.get('sslmode');
  // libpq's require and verify-ca with a root certificate check the chain but not the name; verify-ca insists on the
  // certificate, which is read later, so the parser is told verify-full and the name check is dropped below.
  const chainOnly = compat && files.sslrootcert !== undefined && (mode === 'require' || mode === 'verify-ca');
  if (chainOnly) url.searchParams.set('sslmode', 'verify-full');
  let parsed: ConnectionOptions;
  try {
    parsed = parse(url.toString());
  } catch (e) {
    refuse(`The database URL cannot be used: ${(e as Error).message}`);
  }
  if (Object.keys(files).length > 0 && parsed.ssl === undefined) parsed.ssl = {};
  if (chainOnly && typeof parsed.ssl === 'object' && parsed.ssl) {
    (parsed.ssl as Record<string, unknown>).checkServerIdentity = () => undefined;
  }
  const config: ClientConfig = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value === undefined || value === null || value === '') continue;
    if (key === 'port') {
      const port = Number.parseInt(String(value), 10);
      if (!Number.isInteger(port)) refuse('The database URL\'s port is not a number.');
      config.port = port;
    } else {
      (config as Record<string, unknown>)[key] = value;
    }
  }
  return config;
}

/**
 * The config to connect with: the start option's certificate and key files read
 * now, asynchronously, each only if it is a regular file of at most 1 MB.
 */
export async function connectionConfig(parsed: ParsedDatabaseUrl): Promise<ClientConfig> {
  const entries = Object.entries(parsed.files) as [TlsFile, string][];
  if (entries.length === 0) return parsed.config;
  const ssl: Record<string, unknown> = typeof parsed.config.ssl === 'object' && parsed.config.ssl ? { ...parsed.config.ssl } : {};
  for (const [name, path] of entries) {
    const label = `the database URL's ${name}`;
    let handle;
    try {
      handle = await openRegularFile(path, path);
    } catch (e) {
      refuse(`Hearth cannot use ${label}: ${(e as Error).message}`);
    }
    try {
      const { size } = await handle.stat();
      if (size > TLS_FILE_LIMIT) refuse(`Hearth cannot use ${label}: "${path}" is ${size} bytes, more than a certificate or key holds.`);
      ssl[TLS_FILES[name]] = (await readFile(handle)).toString('utf8');
    } finally {
      await handle.close();
    }
  }
  return { ...parsed.config, ssl };
}
