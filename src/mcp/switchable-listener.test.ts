import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCore, type TestCore } from '../core/testing/core';
import { startMcpListener } from './listener';
import { connectHttp, readEndpoint } from '../core/testing/mcp-processes';
import { isToolError } from '../core/testing/mcp-client';

// The desktop app's listener without Electron: the same switch main/index.ts uses.
let core: TestCore;
beforeAll(async () => {
  core = await makeTestCore({ queues: {} });
});
afterAll(async () => {
  await core?.dispose();
});

describe('the desktop app’s MCP listener switch', () => {
  it('is off until the user switches it on; on, it serves /mcp and points stdio servers at it; off again, it is gone', async () => {
    const before = await core.dispatch('mcp.setListener', { enabled: true });
    expect(before).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    const listener = core.mcp.switchable(startMcpListener);
    await listener.start();
    expect(readEndpoint(core.dataDir)).toBeNull();
    expect((await core.call('mcp.connectionInfo', { persona: 'main' })).http).toMatchObject({ listening: false, switchable: true });

    const on = await core.call('mcp.setListener', { enabled: true });
    expect(on).toMatchObject({ listening: true, enabled: true });
    const endpoint = readEndpoint(core.dataDir)!;
    expect(endpoint).toMatchObject({ kind: 'desktop', pid: process.pid });
    const client = await connectHttp(endpoint.port, endpoint.token, 'persona=main', 'desk-tool');
    expect((await client.listTools()).tools).toHaveLength(10);
    await client.close();
    // Only the user may switch it.
    expect(await core.dispatch('mcp.setListener', { enabled: false }, { actor: 'mcp:desk-tool' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    expect(await core.call('mcp.setListener', { enabled: false })).toMatchObject({ listening: false });
    expect(readEndpoint(core.dataDir)).toBeNull();
    await expect(fetch(`http://127.0.0.1:${endpoint.port}/mcp?persona=main`, { method: 'POST' })).rejects.toThrow();

    // The choice is kept: an app started later listens again if it was left on.
    await core.call('mcp.setListener', { enabled: true });
    await listener.stop();
    const again = core.mcp.switchable(startMcpListener);
    await again.start();
    expect(readEndpoint(core.dataDir)?.kind).toBe('desktop');
    await again.stop();
    expect(readEndpoint(core.dataDir)).toBeNull();
  });

  it('keeps one token and port per install, so an HTTP client works across a restart, until the user asks for a new token', async () => {
    await core.call('mcp.setListener', { enabled: true });
    const first = core.mcp.switchable(startMcpListener);
    await first.start();
    const info = await core.call('mcp.connectionInfo', { persona: 'main' });
    const { port, token } = readEndpoint(core.dataDir)!;
    expect(info.http).toMatchObject({ listening: true, token });
    expect(info.httpSnippet).toContain(`Bearer ${token}`);
    expect(info.httpSnippet).toContain(`http://127.0.0.1:${port}/mcp?persona=main`);
    const client = await connectHttp(port, token, 'persona=main', 'http-across-restarts');
    expect(isToolError(await client.callTool({ name: 'list_memories', arguments: {} }))).toBe(false);

    // The app quits and starts again: same port, same token, and the client goes on as if nothing happened.
    await first.stop();
    const second = core.mcp.switchable(startMcpListener);
    await second.start();
    expect(readEndpoint(core.dataDir)).toMatchObject({ port, token });
    expect(isToolError(await client.callTool({ name: 'list_memories', arguments: {} }))).toBe(false);

    expect(await core.dispatch('mcp.rotateToken', {}, { actor: 'mcp:http-across-restarts' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const rotated = await core.call('mcp.rotateToken', {});
    expect(rotated).toMatchObject({ listening: true });
    expect(rotated!.token).not.toBe(token);
    const post = (t: string) => fetch(`http://127.0.0.1:${port}/mcp?persona=main`, { method: 'POST', headers: { authorization: `Bearer ${t}` } });
    expect((await post(token)).status).toBe(401);
    expect(readEndpoint(core.dataDir)).toMatchObject({ port, token: rotated!.token });
    await client.close().catch(() => undefined);
    const again = await connectHttp(port, rotated!.token!, 'persona=main', 'http-new-token');
    expect(isToolError(await again.callTool({ name: 'list_memories', arguments: {} }))).toBe(false);
    await again.close();
    await second.stop();
  });
});
