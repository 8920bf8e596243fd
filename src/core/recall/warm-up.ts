// What a person's first recall would otherwise pay on its own, paid once in
// quiet time after the app's page is up (docs/embeddings.md, "What a recall
// waits for"): chrono-node's load and its first parses, and the database's
// first reads of the recall statements' tables and indexes.
import type { Queryable } from '../db/client';
import type { CoreContext } from '../context';
import { recall } from './recall';
import { timeRanges } from './time-query';

/** After start: by then the first view's calls are answered (docs/startup.md). */
export const WARM_UP_AFTER_MS = 3_000;
/** The database must have been this quiet before the warm-up's statements: a person's own calls come first. */
const QUIET_MS = 500;
const LOOK_MS = 250;
/** A database that is never quiet for long (a big import) is not waited for past this: the warm-up simply runs. */
const MAX_WAIT_MS = 30_000;

/**
 * Phrases that take chrono-node through its common parsers once: its first parses compile their
 * patterns and cost tens to hundreds of milliseconds each, later ones about a millisecond.
 */
const TIME_PHRASES = [
  'What did we decide last week about the trip on Monday 3 May 2021 at 5pm?',
  'Where was the meeting yesterday, two days ago, or in the spring of 2022?',
  'How do I store the notes from this morning in June',
];

interface QuietDb extends Queryable {
  local?: { idleForMs(): number | null } | null;
}

async function quietDatabase(db: QuietDb, stopped: () => boolean): Promise<void> {
  const until = Date.now() + MAX_WAIT_MS;
  while (!stopped() && Date.now() < until) {
    const idle = db.local ? db.local.idleForMs() : QUIET_MS;
    if (idle !== null && idle >= QUIET_MS) return;
    await new Promise((r) => setTimeout(r, LOOK_MS).unref());
  }
}

/**
 * Loads chrono-node, parses a few time phrases, and runs one read-only recall (a unit query vector of
 * the current model's size, no model called) over the first persona's memories and knowledge.
 * Never throws: the warm-up only saves time, and a failure costs the first recall what it always did.
 */
export async function warmRecall(ctx: CoreContext, stopped: () => boolean = () => false): Promise<void> {
  try {
    await quietDatabase(ctx.db, stopped);
    if (stopped()) return;
    const now = ctx.now();
    for (const phrase of TIME_PHRASES) await timeRanges(phrase, now);
    if (stopped()) return;
    const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM personas WHERE NOT importing ORDER BY created_at LIMIT 1');
    const persona = rows[0]?.id;
    if (!persona || stopped()) return;
    const vector = new Float32Array(ctx.embedder.current('no-persona').dimensions);
    vector[0] = 1;
    await recall(ctx, { persona, query: TIME_PHRASES[0]!, queryEmbedding: ctx.db.features.vector ? vector : null, limit: 5 });
  } catch {
    // Closed meanwhile, a persona deleted under it, a database that cannot answer yet: nothing is lost.
  }
}

/**
 * Schedules warmRecall WARM_UP_AFTER_MS after start, in quiet time. `done` settles when it has run or
 * was cancelled; `cancel` stops it (between its steps when under way). The timer never keeps a process alive.
 */
export function scheduleRecallWarmUp(ctx: CoreContext, afterMs = WARM_UP_AFTER_MS): { done: Promise<void>; cancel(): Promise<void> } {
  let stopped = false;
  let settle: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (settle = resolve));
  let began = false;
  const timer = setTimeout(() => {
    began = true;
    void warmRecall(ctx, () => stopped).finally(settle);
  }, afterMs);
  timer.unref();
  return {
    done,
    async cancel() {
      stopped = true;
      clearTimeout(timer);
      // A warm-up not begun never will; one under way ends at its next step.
      if (!began) settle();
      await done;
    },
  };
}
