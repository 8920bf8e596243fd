import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';
import { ConnectionsPage } from './pages/ConnectionsPage';

const text = (r: unknown) => ((r as CallToolResult).content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');

test('an AI tool’s call shows in Settings → Connections, and switching it off refuses its next call', async ({ host, page, openApp }) => {
  // Another AI tool, as the SDK's own client over Streamable HTTP.
  const client = new Client({ name: 'e2e-tool', version: '2.1.0' });
  const url = new URL(`${host.baseUrl}/mcp?persona=main`);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${host.token}` } } }));
  try {
    const added = await client.callTool({ name: 'add_memory', arguments: { content: 'Adopted a grey cat named Pixel', category: 'family' } });
    expect((added as CallToolResult).isError ?? false).toBe(false);

    const app = new AppPage(await openApp(page));
    await app.ready();
    await app.go('settings');
    const c = new ConnectionsPage(page);
    await c.view.scrollIntoViewIfNeeded();
    await expect(c.client('e2e-tool')).toContainText('add_memory · main');
    await expect(c.client('e2e-tool')).toContainText('ok');
    await expect(c.calls().first()).toContainText('e2e-tool');
    await expect(c.calls().first()).toContainText('add_memory');
    // The snippet names this install's stdio command and data folder.
    await expect(c.snippet('claude')).toContainText('scripts/mcp.mjs');
    await expect(c.snippet('claude')).toContainText(host.dataDir);
    await expect(c.snippet('claude')).toContainText('"--persona"');
    await expect(c.snippet('cursor')).toContainText('"mcpServers"');
    await expect(c.snippet('vscode')).toContainText('"servers"');
    await expect(c.snippet('vscode')).toContainText('"type": "stdio"');
    await expect(c.snippet('http')).toContainText(`${host.baseUrl}/mcp?persona=main`);

    // A new call appears without reloading.
    await client.callTool({ name: 'search_memory', arguments: { query: 'cat' } });
    await expect(c.calls().first()).toContainText('search_memory');

    await expect(c.clientSwitch('e2e-tool')).toBeChecked();
    await c.clientSwitch('e2e-tool').uncheck();
    await expect(c.clientSwitch('e2e-tool')).not.toBeChecked();
    const refused = await client.callTool({ name: 'add_memory', arguments: { content: 'Should not be saved' } });
    expect((refused as CallToolResult).isError).toBe(true);
    expect(text(refused)).toMatch(/switched off "e2e-tool"/);
    await expect(c.calls().first()).toContainText('error');
    await expect(c.calls().first()).toHaveAttribute('data-ok', 'error');
    const page1 = await host.call('memories.list', { persona: 'main' });
    expect(page1.items.map((m) => m.content)).toEqual(['Adopted a grey cat named Pixel']);
    expect(page1.items[0]!.origin).toBe('mcp:e2e-tool');

    // Its memories can be picked out in the memory browser by origin.
    await app.go('memories');
    await expect(page.getByTestId('filter-origin').locator('option', { hasText: 'mcp:e2e-tool' })).toHaveCount(1);
  } finally {
    await client.close();
  }
});
