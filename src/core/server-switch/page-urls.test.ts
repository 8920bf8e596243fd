// A URL typed in Settings → Data cannot make Hearth touch this computer: no
// certificate or key file is read (a FIFO froze the process, a missing file
// answered differently from an existing one), no local socket is dialled, and
// no password from the environment or ~/.pgpass goes to the server the page
// named (docs/security.md, "The page cannot make Hearth read the disk").
// A start option is the operator's: its files are read, but never a special one.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerDb } from '../db/server';
import { closedPort } from '../testing/ports';
import { makeTestCore, type TestCore } from '../testing/core';

let core: TestCore;
let dir: string;
let port: number;
beforeAll(async () => {
  core = await makeTestCore({ queues: {} });
  dir = mkdtempSync(join(tmpdir(), 'hearth-page-urls-'));
  port = await closedPort();
}, 120_000);
afterAll(async () => {
  await core?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * A process that gives `fifo` a writer after a while, so a read that blocks the
 * test's own thread (the defect) ends instead of hanging the run. It prints
 * "opened" only if someone was reading the FIFO by then.
 */
function unblocker(fifo: string): { child: ChildProcess; opened: () => boolean } {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs');
       setTimeout(() => {
         try { fs.closeSync(fs.openSync(${JSON.stringify(fifo)}, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); process.stdout.write('opened'); }
         catch { process.stdout.write('nobody reading'); }
       }, 4000);`,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  return { child, opened: () => out.includes('opened') };
}

describe('a database URL from the page', () => {
  it('names no file: a missing and an existing certificate get the same refusal, from the test and the copy', async () => {
    const existing = join(dir, 'ca.pem');
    writeFileSync(existing, '-----BEGIN CERTIFICATE-----\n');
    for (const method of ['database.test', 'database.copyAndSwitch'] as const) {
      const answers = [];
      for (const file of ['/nonexistent/ca.pem', existing, '/etc/passwd']) {
        answers.push(await core.dispatch(method, { url: `postgres://u:pw@127.0.0.1:${port}/x?sslmode=verify-full&sslrootcert=${file}` }));
      }
      expect(answers[0]).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
      const message = !answers[0]!.ok ? answers[0]!.error.message : '';
      expect(message).toContain('"sslrootcert" names a file or socket on the computer running Hearth');
      // One answer whatever the file: nothing on the disk was looked at.
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    }
  }, 60_000);

  it('naming a FIFO neither freezes Hearth nor reads it, and Hearth answers other calls meanwhile', async () => {
    const fifo = join(dir, 'cert-pipe');
    execFileSync('mkfifo', [fifo]);
    const guard = unblocker(fifo);
    try {
      const first = core.dispatch('database.test', { url: `postgres://u:pw@127.0.0.1:${port}/x?sslrootcert=${fifo}` });
      const other = await core.dispatch('settings.get', {});
      expect(other.ok).toBe(true);
      // Answered while the FIFO still had no writer: nothing was waiting on it.
      expect(guard.opened()).toBe(false);
      const answer = await first;
      expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
      expect(!answer.ok && answer.error.message).toContain('"sslrootcert"');
    } finally {
      guard.child.kill();
    }
  }, 60_000);

  it('refuses every parameter that names a file or a local socket, in any case', async () => {
    const cases = [
      'sslcert=/tmp/c.pem',
      'sslkey=/tmp/k.pem',
      'SSLROOTCERT=/tmp/ca.pem',
      'sslcrl=/tmp/crl.pem',
      'passfile=/tmp/pgpass',
      'service=mine',
      'host=/var/run/postgresql',
      'sslkeylogfile=/tmp/keys',
    ];
    for (const query of cases) {
      const answer = await core.dispatch('database.test', { url: `postgres://u:pw@127.0.0.1:${port}/x?${query}` });
      expect(answer, query).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
      expect(!answer.ok && answer.error.message, query).toMatch(/names a file or socket on the computer running Hearth/);
    }
    const socket = await core.dispatch('database.test', { url: 'postgres://u:pw@%2Fvar%2Frun%2Fpostgresql/x' });
    expect(!socket.ok && socket.error.message).toMatch(/not a socket on this computer/);
    const unknown = await core.dispatch('database.test', { url: `postgres://u:pw@127.0.0.1:${port}/x?frobnicate=1` });
    expect(!unknown.ok && unknown.error.message).toMatch(/"frobnicate" is not one Hearth uses/);
    // What a server URL needs still passes: the answer is about the server, not the URL.
    const fine = await core.call('database.test', { url: `postgres://u:pw@127.0.0.1:${port}/x?sslmode=disable&application_name=hearth&pool_max=2` });
    expect(fine).toMatchObject({ ok: false, message: expect.stringMatching(/the connection was refused/) });
  }, 60_000);
});

describe('the password sent to a server the page named', () => {
  /** A PostgreSQL server that asks for a cleartext password and records what it was sent. */
  let server: Server;
  let serverPort: number;
  const received: string[] = [];
  beforeAll(async () => {
    server = createServer((socket: Socket) => {
      let buf = Buffer.alloc(0);
      let started = false;
      socket.on('data', (d) => {
        buf = Buffer.concat([buf, d]);
        if (!started && buf.length >= 4 && buf.length >= buf.readInt32BE(0)) {
          started = true;
          buf = buf.subarray(buf.readInt32BE(0));
          const ask = Buffer.alloc(9);
          ask.write('R', 0);
          ask.writeInt32BE(8, 1);
          ask.writeInt32BE(3, 5);
          socket.write(ask);
        }
        if (started && buf.length >= 5 && buf[0] === 'p'.charCodeAt(0) && buf.length >= 1 + buf.readInt32BE(1)) {
          received.push(buf.subarray(5, 1 + buf.readInt32BE(1)).toString('utf8').replace(/\0$/, ''));
          buf = Buffer.alloc(0);
          started = false;
          const fields = Buffer.from('SFATAL\0C28P01\0Mpassword authentication failed\0\0');
          const err = Buffer.alloc(5);
          err.write('E', 0);
          err.writeInt32BE(4 + fields.length, 1);
          socket.end(Buffer.concat([err, fields]));
        }
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    serverPort = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('is the URL\'s own, never PGPASSWORD or a password file', async () => {
    const pgpass = join(dir, 'pgpass');
    writeFileSync(pgpass, '*:*:*:*:from-the-password-file\n', { mode: 0o600 });
    const saved = { PGPASSWORD: process.env.PGPASSWORD, PGPASSFILE: process.env.PGPASSFILE };
    try {
      // With its own password the server gets exactly that one (the fake works).
      await core.call('database.test', { url: `postgres://u:own-password@127.0.0.1:${serverPort}/x` });
      expect(received).toEqual(['own-password']);
      process.env.PGPASSWORD = 'from-the-environment';
      const env = await core.call('database.test', { url: `postgres://u@127.0.0.1:${serverPort}/x` });
      delete process.env.PGPASSWORD;
      process.env.PGPASSFILE = pgpass;
      const file = await core.call('database.test', { url: `postgres://u@127.0.0.1:${serverPort}/x` });
      expect(received).toEqual(['own-password']);
      for (const answer of [env, file]) expect(!answer.ok && answer.message).toMatch(/the server asks for a password and the URL has none/);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }, 60_000);
});

describe('a database URL given as a start option', () => {
  it('reads its certificate files only when they are regular files', async () => {
    const fifo = join(dir, 'start-pipe');
    execFileSync('mkfifo', [fifo]);
    const guard = unblocker(fifo);
    try {
      const base = `postgres://u:pw@127.0.0.1:${port}/x?sslmode=verify-full`;
      await expect(ServerDb.open(`${base}&sslrootcert=${fifo}`, { source: 'start-option' })).rejects.toThrow(/sslrootcert: .*is a named pipe/);
      expect(guard.opened()).toBe(false);
      await expect(ServerDb.open(`${base}&sslrootcert=/dev/zero`, { source: 'start-option' })).rejects.toThrow(/is a device/);
      await expect(ServerDb.open(`${base}&sslkey=${join(dir, 'missing.pem')}`, { source: 'start-option' })).rejects.toThrow(/does not exist/);
      // A regular file is read and the connection goes ahead (refused here: nobody listens).
      const ca = join(dir, 'start-ca.pem');
      writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n');
      await expect(ServerDb.open(`${base}&sslrootcert=${ca}`, { source: 'start-option' })).rejects.toThrow(/the connection was refused/);
    } finally {
      guard.child.kill();
    }
  }, 60_000);
});
