import type { Job } from '../../shared/api';
import type { Queryable } from '../db/client';

// What a job worked on, in words, for the Jobs view: the file an ingest read, the memory or
// document an embedding job embedded, the conversation a review or compaction read.
// Looked up when jobs are listed (one query per kind), so a renamed conversation or an
// edited memory reads as it is now; a thing deleted since says so.

const FIRST_WORDS = 8;

/** The first words of a memory: enough to recognise it, short enough for a table cell. */
export function firstWords(text: string, n = FIRST_WORDS): string {
  const words = text.trim().split(/\s+/);
  return words.length > n ? `${words.slice(0, n).join(' ')}…` : words.join(' ');
}

const more = (n: number) => (n > 0 ? ` and ${n} more` : '');

const ids = (job: Job): string[] => (Array.isArray(job.args.ids) ? job.args.ids.filter((x): x is string => typeof x === 'string') : []);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export async function jobSubjects(q: Queryable, jobs: Job[]): Promise<Job[]> {
  const memoryIds = new Set<string>();
  const chunkIds = new Set<string>();
  const conversationIds = new Set<string>();
  for (const j of jobs) {
    if (j.queue === 'embeddings') {
      const first = ids(j)[0];
      if (first) (j.args.target === 'memory' ? memoryIds : chunkIds).add(first);
    } else if (j.queue === 'memory_review' || j.queue === 'compaction') {
      const c = str(j.args.conversationId);
      if (c) conversationIds.add(c);
    }
  }
  const [memories, chunks, conversations] = await Promise.all([
    lookup(q, 'SELECT id::text AS id, content AS text FROM memories WHERE id::text = ANY($1::text[])', memoryIds),
    lookup(q, 'SELECT id::text AS id, source AS text FROM knowledge_chunks WHERE id::text = ANY($1::text[])', chunkIds),
    lookup(q, 'SELECT id::text AS id, title AS text FROM conversations WHERE id::text = ANY($1::text[])', conversationIds),
  ]);
  return jobs.map((j) => ({ ...j, subject: subjectOf(j, memories, chunks, conversations) }));
}

async function lookup(q: Queryable, sql: string, wanted: Set<string>): Promise<Map<string, string>> {
  if (wanted.size === 0) return new Map();
  const { rows } = await q.query<{ id: string; text: string }>(sql, [[...wanted]]);
  return new Map(rows.map((r) => [r.id, r.text]));
}

function subjectOf(j: Job, memories: Map<string, string>, chunks: Map<string, string>, conversations: Map<string, string>): string | null {
  if (j.queue === 'ingest') return str(j.args.name);
  if (j.queue === 'embeddings') {
    const all = ids(j);
    if (all.length === 0) return null;
    if (j.args.target === 'memory') {
      const text = memories.get(all[0]!);
      return text === undefined ? `a memory since deleted${more(all.length - 1)}` : `“${firstWords(text)}”${more(all.length - 1)}`;
    }
    const source = chunks.get(all[0]!);
    const parts = `${all.length} part${all.length === 1 ? '' : 's'}`;
    return source === undefined ? `${parts} of a document since removed` : `${source} (${parts})`;
  }
  const c = str(j.args.conversationId);
  if (!c) return null;
  const title = conversations.get(c);
  if (title === undefined) return 'a conversation since deleted';
  return title.trim() ? `the chat “${firstWords(title)}”` : 'an untitled chat';
}
