// Optional model help for recall (docs/ranking.md, "Model help"): when the
// person switched it on and a chat model is configured, the question is
// rewritten by that model into a few search queries — the names, places and
// things it implies, or a short imagined memory that would answer it
// (HyDE). Recall then searches the question and these together. It is never
// required: no setting, no model, a model error, a late or malformed answer
// all mean plain recall, with a line in the log and nothing shown to the person.
import { z } from 'zod';
import type { CoreContext } from '../context';
import { chatProviderFrom } from '../providers/llm/config';
import type { PersonaPrivacy } from '../providers/locality';
import { parseModelJson } from '../providers/llm/model-json';
import { chatKey } from '../settings/keys';
import { readSettings } from '../settings/store';

/** At most this many queries from the model are searched besides the question. */
export const MAX_REWRITES = 3;
/** A recall waits no longer than this for the model: past it, the question is searched alone. */
export const REWRITE_TIMEOUT_MS = 8_000;
/** One query's length cap: a rambling answer must not turn into a 16,000-character text query. */
const MAX_REWRITE_CHARS = 300;

const INSTRUCTIONS = `You help search a person's saved memories: short notes of what they and others said, did and planned, each with its day.
Given a question, write up to ${MAX_REWRITES} search queries that would find the memories holding the answer:
- one that restates the question with the names, places, things and related words it implies;
- one or two short sentences written like a memory that would answer it (imagine plausible details; they are only used to search).
Answer with JSON only: {"queries": ["...", "..."]}`;

export const REWRITE_JSON_SCHEMA = {
  type: 'object',
  properties: { queries: { type: 'array', items: { type: 'string' }, maxItems: MAX_REWRITES } },
  required: ['queries'],
  additionalProperties: false,
} as const;

/** The model's answer as it may come: extra entries and odd lengths are cut below, not refused. */
const rewriteOutput = z.object({ queries: z.array(z.string()).max(20) });

/** Cleans the model's queries: trimmed, capped, without repeats or the question itself, at most MAX_REWRITES. */
export function usableQueries(question: string, queries: string[]): string[] {
  const seen = new Set([question.trim().toLowerCase()]);
  const out: string[] = [];
  for (const q of queries) {
    const t = q.replace(/\s+/g, ' ').trim().slice(0, MAX_REWRITE_CHARS);
    if (!t || seen.has(t.toLowerCase())) continue;
    seen.add(t.toLowerCase());
    out.push(t);
    if (out.length === MAX_REWRITES) break;
  }
  return out;
}

/**
 * The model's search queries for `question`, or [] whenever model help is off,
 * impossible or fails. Never throws.
 */
export async function rewriteQuery(ctx: CoreContext, privacy: PersonaPrivacy, question: string, signal?: AbortSignal): Promise<string[]> {
  if (!question.trim()) return [];
  const settings = await readSettings(ctx);
  if (!settings.recallRewrite || !settings.chat.model) return [];
  const timeout = AbortSignal.timeout(REWRITE_TIMEOUT_MS);
  try {
    const provider = chatProviderFrom({ chat: { ...settings.chat, apiKey: await chatKey(ctx.secrets, settings) } }, privacy);
    const res = await provider.chat(
      [
        { role: 'system', content: INSTRUCTIONS },
        { role: 'user', content: question.slice(0, 2_000) },
      ],
      [],
      { signal: signal ? AbortSignal.any([signal, timeout]) : timeout, jsonSchema: { name: 'search_queries', schema: REWRITE_JSON_SCHEMA } },
    );
    const json = parseModelJson(res.content);
    const parsed = json.ok ? rewriteOutput.safeParse(json.value) : null;
    if (!parsed?.success) {
      console.warn(`recall: the model's search queries were unusable, plain recall this time (${!json.ok ? json.error : (parsed?.error.issues[0]?.message ?? 'unexpected shape')})`);
      return [];
    }
    return usableQueries(question, parsed.data.queries);
  } catch (e) {
    const why = timeout.aborted ? `no answer within ${REWRITE_TIMEOUT_MS} ms` : (e as Error)?.message ?? String(e);
    console.warn(`recall: no search queries from the model, plain recall this time (${why.slice(0, 200)})`);
    return [];
  }
}
