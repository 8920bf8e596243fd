import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryPage } from '../shared/api';
import { createCore } from '../core';
import { makeTestCore } from '../core/testing/core';
import { installEmbeddings } from '../core/testing/fake-openai/embeddings';
import { type FakeServer, startFakeServer } from '../core/testing/fake-openai/server';
import { isToolError, resultText } from '../core/testing/mcp-client';
import { connectHttp, connectStdio, endpointOwner, lockOwner, SLOW, spawnHostFromSource, type HostChild, type StdioChild } from '../core/testing/mcp-processes';

// The doors as a user runs them: the stdio server a child process of the SDK's
// own client, the browser host a child process, one data folder, one owner.
const TOKEN = 'mcp-process-test-token-0123456789';
let fake: FakeServer;
let dataDir: string;
const open: { close(): Promise<void> }[] = [];
const hosts: HostChild[] = [];

beforeAll(async () => {
  fake = await startFakeServer();
  installEmbeddings(fake, { dimensions: 16 });
  // A prepared folder whose embeddings come from the fake server (no model to load in each child).
  const core = await makeTestCore();
  dataDir = core.dataDir;
  await core.call('settings.set', { embeddings: { provider: 'compatible', baseUrl: fake.baseURL, model: 'fake-embed', dimensions: 16 } });
  await core.call('personas.create', { name: 'Work' });
  await core.close();
}, 300_000);

afterAll(async () => {
  for (const c of open.reverse()) await c.close().catch(() => undefined);
  for (const h of hosts) await h.stop();
  await fake?.close();
});

const add = async (c: StdioChild['client'], content: string) => {
  const r = await c.callTool({ name: 'add_memory', arguments: { content } }, undefined, SLOW);
  expect(isToolError(r), resultText(r)).toBe(false);
};

describe('MCP over stdio and HTTP, one database owner throughout', { timeout: 600_000 }, () => {
  it('owns the folder when no Hearth runs; a host started meanwhile takes it over and nothing is lost', async () => {
    const first = await connectStdio(dataDir, 'main', 'first-tool');
    open.push(first);
    await add(first.client, 'Ordered a walnut desk from the joiner');
    expect(endpointOwner(dataDir)).toEqual({ pid: first.pid(), kind: 'mcp-stdio' });
    expect(lockOwner(dataDir)).toBe(first.pid());
    // Nobody else may open it meanwhile.
    await expect(createCore({ dataDir })).rejects.toMatchObject({ code: 'locked' });

    // A second AI tool's stdio server forwards to the first.
    const second = await connectStdio(dataDir, 'main', 'second-tool');
    open.push(second);
    await add(second.client, 'Booked a piano tuner for Thursday');
    expect(lockOwner(dataDir)).toBe(first.pid());

    const host = await spawnHostFromSource(dataDir, TOKEN);
    hosts.push(host);
    expect(host.output()).toMatch(/handed it over/);
    expect(endpointOwner(dataDir)).toEqual({ pid: host.child.pid, kind: 'host' });
    expect(lockOwner(dataDir)).toBe(host.child.pid);

    // Both stdio servers go on working, now through the host.
    await add(first.client, 'Paid the joiner a deposit');
    const found = await second.client.callTool({ name: 'search_memory', arguments: { query: 'walnut desk joiner' } }, undefined, SLOW);
    expect(resultText(found)).toContain('Ordered a walnut desk');
    expect(first.stderr()).toMatch(/handed it over/);
    expect(lockOwner(dataDir)).toBe(host.child.pid);

    const page = await host.api<MemoryPage>('memories.list', { persona: 'main' });
    expect(page.items.map((m) => [m.content, m.origin]).sort()).toEqual([
      ['Booked a piano tuner for Thursday', 'mcp:second-tool'],
      ['Ordered a walnut desk from the joiner', 'mcp:first-tool'],
      ['Paid the joiner a deposit', 'mcp:first-tool'],
    ]);
    const clients = await host.api<{ name: string }[]>('mcp.clients', {});
    expect(clients.map((c) => c.name).sort()).toEqual(['first-tool', 'second-tool']);
  });

  it('over HTTP at /mcp: token, Host and Origin checked, read-only refused, persona bound', async () => {
    const host = hosts[0]!;
    const http = await connectHttp(host.port, TOKEN, 'persona=work', 'http-tool');
    open.push(http);
    const r = await http.callTool({ name: 'add_memory', arguments: { content: 'Quarterly review moved to Friday', category: 'work' } }, undefined, SLOW);
    expect(isToolError(r), resultText(r)).toBe(false);
    expect(resultText(await http.callTool({ name: 'list_memories', arguments: {} }))).toContain('Quarterly review');
    expect(resultText(await http.callTool({ name: 'search_memory', arguments: { query: 'walnut desk' } }))).not.toContain('walnut');

    const ro = await connectHttp(host.port, TOKEN, 'persona=work&readOnly=1', 'http-reader');
    open.push(ro);
    const refused = await ro.callTool({ name: 'add_memory', arguments: { content: 'nope' } });
    expect(resultText(refused)).toMatch(/read-only/);
    expect((await host.api<MemoryPage>('memories.list', { persona: 'work' })).total).toBe(1);

    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const post = (headers: Record<string, string>, query = 'persona=main') =>
      fetch(`http://127.0.0.1:${host.port}/mcp?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: init,
      });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong-token-wrong-token' })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post({ authorization: `Bearer ${TOKEN}` }, 'persona=nobody')).status).toBe(400);
    expect((await post({ authorization: `Bearer ${TOKEN}` }, '')).status).toBe(400);
    expect((await post({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it('a stdio server whose owner stops takes the folder over itself, and read-only holds over stdio', async () => {
    const ro = await connectStdio(dataDir, 'main', 'stdio-reader', ['--read-only']);
    open.push(ro);
    const refused = await ro.client.callTool({ name: 'delete_memory', arguments: { id: '00000000-0000-4000-8000-000000000000' } }, undefined, SLOW);
    expect(resultText(refused)).toMatch(/read-only/);

    const first = open[0] as StdioChild;
    await hosts[0]!.stop();
    expect(endpointOwner(dataDir)).toBeNull();
    // The next call finds nobody: one of the stdio servers opens the folder, the other forwards to it.
    await add(first.client, 'Collected the desk');
    const owner = lockOwner(dataDir);
    expect([first.pid(), (open[1] as StdioChild).pid(), ro.pid()]).toContain(owner);
    const listed = resultText(await ro.client.callTool({ name: 'list_memories', arguments: {} }, undefined, SLOW));
    expect(listed).toContain('Collected the desk');
    expect(listed).toMatch(/^4 of 4 memories/);
  });
});
