// Tidy up at scale: memories.duplicates on one persona of N memories (default
// 10,000) of varied personal facts, some stored twice in other words. Vectors
// are a hashed bag of words (the test embedder), stored as the current
// model's so the pair cosines are read as in the app.
import { loadavg } from 'node:os';
import { makeTestCore } from '../../src/core/testing/core';
import { fakeVector } from '../../src/core/testing/fake-openai/embeddings';
import { importMemories } from '../../src/core/memories/import';

const PEOPLE = ['Ana', 'Bruno', 'Clara', 'Dev', 'Elif', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kemal', 'Lena', 'Mia', 'Noor', 'Omar', 'Priya'];
const RELATIONS = ['sister', 'brother', 'friend', 'colleague', 'neighbour', 'cousin', 'manager', 'daughter'];
const THINGS = ['jazz', 'chess', 'sushi', 'hiking', 'the piano', 'tennis', 'gardening', 'old films', 'spicy food', 'board games', 'sailing', 'pottery'];
const PLACES = ['Lyon', 'Porto', 'Vienna', 'Leeds', 'Naples', 'Berlin', 'Tokyo', 'Oslo', 'Quito', 'Perth'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function fact(i: number): string {
  const p = PEOPLE[i % PEOPLE.length]!;
  const r = RELATIONS[Math.floor(i / 16) % RELATIONS.length]!;
  const t = THINGS[Math.floor(i / 128) % THINGS.length]!;
  const place = PLACES[Math.floor(i / 7) % PLACES.length]!;
  const d = DAYS[i % DAYS.length]!;
  switch (i % 5) {
    case 0: return `User's ${r} ${p} likes ${t} (note ${i}).`;
    case 1: return `User meets ${p} in ${place} every ${d}; booking ${i}.`;
    case 2: return `User's ${r} ${p} moved to ${place} in ${1990 + (i % 35)}, flat ${i}.`;
    case 3: return `User paid ${p} ${10 + (i % 500)} euros for ${t} lessons, receipt ${i}.`;
    default: return `User wants to try ${t} with ${p} in ${place}, plan ${i}.`;
  }
}

export async function tidyTiming(n: number): Promise<void> {
  const core = await makeTestCore({ queues: {} });
  try {
    const model = core.ctx.embedder.model();
    const texts = Array.from({ length: n }, (_, i) => fact(i));
    // One in 50 is stored a second time in other words.
    for (let i = 0; i < n / 50; i++) texts.push(fact(i * 50).replace(/^User's /, 'The user\'s ').replace(/\.$/, ''));
    const rows = texts.map((content) => ({ content, day: '2026-01-05', embedding: fakeVector(content, 512), embeddingModel: model }));
    await core.call('personas.create', { name: 'Tidy' });
    await importMemories(core.ctx, 'tidy', rows);
    const times: number[] = [];
    let groups = 0;
    for (let run = 0; run < 3; run++) {
      const t0 = performance.now();
      groups = (await core.call('memories.duplicates', { persona: 'tidy' })).length;
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`Tidy up: memories.duplicates over ${rows.length} memories found ${groups} groups in ${times[1]!.toFixed(0)} ms (median of 3; min ${times[0]!.toFixed(0)}, max ${times[2]!.toFixed(0)}); load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  } finally {
    await core.dispose();
  }
}
