import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEndpoint } from '../core/mcp/endpoint';
import { makeTestCore, type TestCore } from '../core/testing/core';
import { SwitchableMcpListener } from './switchable-listener';
import { connectHttp } from '../core/testing/mcp-processes';

// The desktop app's listener without Electron: the same class main/index.ts uses.
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

    const listener = new SwitchableMcpListener(core, core.dataDir);
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
    const again = new SwitchableMcpListener(core, core.dataDir);
    await again.start();
    expect(readEndpoint(core.dataDir)?.kind).toBe('desktop');
    await again.stop();
    expect(readEndpoint(core.dataDir)).toBeNull();
  });
});
