// A core in a child process, for the crash-recovery test: it stores one memory
// (whose embedding job the test's fake server holds), reports the memory id on
// stdout, and waits to be killed. Usage: node <its bundle, source-build.ts> <dataDir> <baseURL>
import { createCore } from '../index';

const [dataDir, baseUrl] = process.argv.slice(2);
if (!dataDir || !baseUrl) throw new Error('usage: crash-child.ts <dataDir> <baseURL>');
const core = await createCore({ dataDir, jobs: { pollMs: 100 } });
await core.call('settings.set', { embeddings: { provider: 'compatible', baseUrl, model: 'fake-embed', dimensions: 16 } });
const m = await core.call('memories.write', { persona: 'main', content: 'The user keeps bees on the roof.' });
process.stdout.write(`${JSON.stringify({ memoryId: m.id })}\n`);
// Kept alive until the test kills it.
setInterval(() => undefined, 60_000);
