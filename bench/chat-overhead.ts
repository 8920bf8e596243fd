// Time from a user message to the first streamed token that Hearth itself
// adds (the fake model answers at once), median of 20 turns; and the
// prompt-stability trace: the system prompt's hash per turn.
// Run: npx tsx bench/chat-overhead.ts
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { makeTestCore } from '../src/core/testing/core';
import { installChatRoutes } from '../src/core/testing/fake-openai/chat';
import { installEmbeddings } from '../src/core/testing/fake-openai/embeddings';
import { startFakeServer } from '../src/core/testing/fake-openai/server';
import { waitForJobs } from '../src/core/testing/wait-jobs';
import { loadavg } from 'node:os';

const TURNS = 20;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

async function main(): Promise<void> {
  const server = await startFakeServer();
  const fake = installChatRoutes(server);
  installEmbeddings(server, { dimensions: 16 });
  const core = await makeTestCore();
  await core.call('settings.set', {
    chat: { baseUrl: server.baseURL, model: 'fake-chat' },
    embeddings: { provider: 'compatible', baseUrl: server.baseURL, model: 'fake-embed', dimensions: 16 },
    reviewEvery: 1000,
  });
  for (let i = 0; i < 30; i++) await core.call('memories.write', { persona: 'main', content: `Seed memory number ${i}.`, importance: 1 + (i % 10) });

  // Background embedding of the seeds would compete with the turns: let it finish first.
  await waitForJobs(core, 'embeddings', 120_000);

  let arrived = 0;
  fake.fallback = () => {
    arrived = performance.now();
    return { text: 'A short streamed answer for the benchmark.', chunks: 4 };
  };
  let firstToken = 0;
  core.events.subscribe((name) => {
    if (name === 'chat.token' && firstToken === 0) firstToken = performance.now();
  });

  const total: number[] = [];
  const before: number[] = [];
  const after: number[] = [];
  for (let i = -3; i < TURNS; i++) {
    firstToken = 0;
    const t0 = performance.now();
    await core.call('chat.send', { persona: 'main', text: `Benchmark message ${i}: how is it going?` });
    if (i < 0) continue; // warm-up: JIT, the client's first connection
    total.push(firstToken - t0);
    before.push(arrived - t0);
    after.push(firstToken - arrived);
  }
  const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} ms (p90 ${p(xs, 0.9).toFixed(1)}, min ${Math.min(...xs).toFixed(1)})`;
  console.log(`chat overhead over ${TURNS} turns (fake model answers instantly, 30 memories, growing history; load average ${loadavg()[0]!.toFixed(1)}):`);
  console.log(`  user message → first streamed token event: ${fmt(total)}`);
  console.log(`    of which before the request reaches the model (store message, assemble prompt, history): ${fmt(before)}`);
  console.log(`    of which from the request's arrival to the token event (HTTP, SSE parsing, event):     ${fmt(after)}`);

  // Prompt stability: memories written by the agent do not change the system prompt; a user-model write, a /clear do.
  const trace: string[] = [];
  const systemOfLast = () => hash(fake.requests.at(-1)!.messages[0]!.content ?? '');
  const turn = async (label: string, ...replies: Parameters<typeof fake.push>) => {
    fake.push(...replies);
    await core.call('chat.send', { persona: 'main', text: label });
    trace.push(`${label.padEnd(44)} system prompt ${systemOfLast()}`);
  };
  const write = (content: string) => ({
    toolCalls: [{ name: 'memory', arguments: JSON.stringify({ action: 'write', content, importance: 10 }) }],
  });
  await turn('turn A', { text: 'ok' });
  await turn('turn B (agent writes an imp=10 memory)', write('Important event B.'), { text: 'saved' });
  await turn('turn C', { text: 'ok' });
  await turn('turn D (agent writes an imp=10 memory)', write('Important event D.'), { text: 'saved' });
  await turn('turn E (user_model_write)', { toolCalls: [{ name: 'user_model_write', arguments: '{"dimension":"goals","content":"Finish the bench"}' }] }, { text: 'ok' });
  await turn('turn F', { text: 'ok' });
  await core.call('chat.clear', { persona: 'main' });
  await turn('turn G (after /clear)', { text: 'ok' });
  await turn('turn H', { text: 'ok' });
  console.log('\nprompt-stability trace:');
  for (const line of trace) console.log(`  ${line}`);

  await core.dispose();
  await server.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
