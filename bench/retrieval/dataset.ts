import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The neutral conversational-memory format of ../shared/bench-data/README.md.
// The data is licensed for non-commercial evaluation: read it in place, never copy it.

export interface Turn {
  conv: string;
  id: string;
  session: number;
  day: string;
  ts: string;
  speaker: string;
  content: string;
}

export interface Question {
  conv: string;
  qid: string;
  category: number;
  category_name: string;
  question: string;
  answer: unknown;
  evidence: string[];
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export function loadDataset(dir: string): { turns: Turn[]; questions: Question[] } {
  return {
    turns: readJsonl<Turn>(join(dir, 'memories.jsonl')),
    questions: readJsonl<Question>(join(dir, 'queries.jsonl')).filter((q) => q.evidence.length > 0),
  };
}

export function byConversation<T extends { conv: string }>(items: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) {
    const list = out.get(it.conv) ?? [];
    list.push(it);
    out.set(it.conv, list);
  }
  return out;
}
