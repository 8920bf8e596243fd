import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTestCore } from '../core/testing/core';
import { ROOT } from '../core/testing/mcp-processes';

// `npm run mcp` as an MCP host configured with it runs it: its stdout is the
// protocol, so nothing else may appear there — not npm's "> hearth@… mcp" banner (.npmrc).
let dataDir: string;

beforeAll(async () => {
  const core = await makeTestCore();
  dataDir = core.dataDir;
  await core.close();
}, 120_000);

afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('`npm run mcp` prints nothing but JSON-RPC on stdout', { timeout: 600_000 }, async () => {
  const child = spawn('npm', ['run', 'mcp', '--', '--persona', 'main', '--data-dir', dataDir], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const listed = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/"id":2\b/.test(out)) resolve();
    });
    void exited.then(() => reject(new Error(`npm run mcp exited early:\n${err}`)));
  });
  const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'npm-test', version: '1' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
  await listed;
  child.stdin.end();
  await exited;
  const lines = out.split('\n').filter((l) => l !== '');
  expect(lines.length, err).toBeGreaterThanOrEqual(2);
  for (const line of lines) expect(JSON.parse(line), line).toMatchObject({ jsonrpc: '2.0' });
});
