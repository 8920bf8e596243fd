// HEARTH_DATABASE_URL / --database-url: a PostgreSQL connection URL
// (postgres://user:password@host:5432/database?sslmode=require). TLS follows
// the URL's sslmode as node-postgres reads it. The password never leaves this
// module's config: messages name the server as user@host:port/database.
import { AppError } from '../../shared/errors';

export interface ServerAddress {
  host: string;
  port: number;
  user: string;
  database: string;
}

export interface ParsedDatabaseUrl {
  /** What node-postgres connects with (the URL without Hearth's own parameters). */
  config: { connectionString: string };
  address: ServerAddress;
  /** `pool_max=N` in the URL: how many connections the pool may hold (Hearth's parameter, not sent to the server). */
  poolMax?: number;
}

export function describeServer(a: ServerAddress): string {
  return `${a.user}@${a.host}:${a.port}/${a.database}`;
}

const EXAMPLE = 'postgres://user:password@host:5432/database';

export function parseDatabaseUrl(raw: string): ParsedDatabaseUrl {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    // The text itself is not repeated: it may hold a password.
    throw new AppError('database_server', `The database URL is not a URL. Expected the form ${EXAMPLE}.`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new AppError('database_server', `The database URL must start with postgres:// or postgresql:// (the form is ${EXAMPLE}).`);
  }
  if (!url.hostname) throw new AppError('database_server', `The database URL names no host (the form is ${EXAMPLE}).`);
  let poolMax: number | undefined;
  const pool = url.searchParams.get('pool_max');
  if (pool !== null) {
    poolMax = Number(pool);
    if (!Number.isInteger(poolMax) || poolMax < 1 || poolMax > 100) {
      throw new AppError('database_server', 'The database URL\'s pool_max must be a whole number from 1 to 100.');
    }
    url.searchParams.delete('pool_max');
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  const user = decodeURIComponent(url.username) || process.env.PGUSER || 'postgres';
  return {
    config: { connectionString: url.toString() },
    address: { host: url.hostname, port: url.port ? Number(url.port) : 5432, user, database },
    ...(poolMax !== undefined ? { poolMax } : {}),
  };
}
