import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirFlag, defaultDataDir } from '../core';
import { parseStdioArgs } from '../mcp/args';
import { readHostConfig } from './config';

describe('host configuration', () => {
  it('takes the data dir from --data-dir, then HEARTH_DATA_DIR, then the per-user app-data folder', () => {
    const env = { HEARTH_DATA_DIR: '/tmp/from-env', XDG_CONFIG_HOME: '/home/u/.config' };
    expect(readHostConfig(env, ['--data-dir', 'rel/dir']).dataDir).toBe(resolve('rel/dir'));
    expect(readHostConfig(env, ['--data-dir=/tmp/eq']).dataDir).toBe('/tmp/eq');
    expect(readHostConfig(env, []).dataDir).toBe('/tmp/from-env');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/home/u/.config' }, 'linux')).toBe(join('/home/u/.config', 'Hearth'));
    expect(dataDirFlag(['--data-dir'])).toBeNull();
  });

  it('takes a PostgreSQL server from --database-url, then HEARTH_DATABASE_URL; none by default', () => {
    const env = { HEARTH_DATABASE_URL: 'postgres://env@db/hearth' };
    expect(readHostConfig(env, ['--database-url', 'postgres://flag@db/hearth']).databaseUrl).toBe('postgres://flag@db/hearth');
    expect(readHostConfig(env, ['--database-url=postgres://eq@db/hearth']).databaseUrl).toBe('postgres://eq@db/hearth');
    expect(readHostConfig(env, []).databaseUrl).toBe('postgres://env@db/hearth');
    expect(readHostConfig({}, []).databaseUrl).toBeNull();
    // The MCP server takes the same flag (and refuses unknown ones).
    expect(parseStdioArgs(['--persona', 'main', '--database-url', 'postgres://x@db/h'], {})).toMatchObject({ databaseUrl: 'postgres://x@db/h' });
  });

  it('uses HEARTH_PORT and HEARTH_TOKEN, or a free port and a fresh random token', () => {
    const fixed = readHostConfig({ HEARTH_PORT: '4123', HEARTH_TOKEN: 'a-long-enough-token' }, []);
    expect(fixed).toMatchObject({ port: 4123, token: 'a-long-enough-token' });
    const a = readHostConfig({}, []);
    const b = readHostConfig({}, []);
    expect(a.port).toBe(0);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(a.token).not.toBe(b.token);
  });

  it('refuses a bad port or a weak token with a message', () => {
    expect(() => readHostConfig({ HEARTH_PORT: '70000' }, [])).toThrow(/HEARTH_PORT must be a port number/);
    expect(() => readHostConfig({ HEARTH_PORT: 'abc' }, [])).toThrow(/HEARTH_PORT/);
    expect(() => readHostConfig({ HEARTH_TOKEN: 'short' }, [])).toThrow(/at least 16/);
    expect(() => readHostConfig({ HEARTH_TOKEN: 'has spaces in it, sixteen+' }, [])).toThrow(/URL-safe/);
  });

  it('takes the answer to a refusal at start: --restore-backup ID|newest or --start-empty, not both', () => {
    expect(readHostConfig({}, [])).toMatchObject({ restoreBackup: null, startEmpty: false });
    expect(readHostConfig({}, ['--restore-backup', 'newest']).restoreBackup).toBe('newest');
    expect(readHostConfig({}, ['--restore-backup=20260101T000000000Z-manual-aaaaaa']).restoreBackup).toBe('20260101T000000000Z-manual-aaaaaa');
    expect(readHostConfig({}, ['--start-empty']).startEmpty).toBe(true);
    expect(() => readHostConfig({}, ['--start-empty', '--restore-backup', 'newest'])).toThrow(/Choose one/);
  });
});
