import type { z } from 'zod';
import { isAppError } from '../../../shared/errors';
import type { CoreContext } from '../../context';
import type { Memory } from '../../../shared/api';
import { deleteMemoryOfPersona, ingestForTool, recallAsText, upsertUserModel, userModelHistoryAsText, writeMemory, writeSupersedingMemory } from '../stores';
import { checkText, nulRefused, surrogateNote } from '../../text-safety';
import { READING_TOOLS } from './definitions';
import { ingestArgs, MAX_TOOL_ARGS_CHARS, memoryArgs, recallArgs, recallToolFilters, userModelArgs, userModelHistoryArgs } from './args';

export interface ToolScope {
  persona: string;
  conversationId: string;
  /** An incognito conversation: a tool that writes is refused even if the model calls it unoffered. */
  incognito?: boolean;
}

export interface ToolOutcome {
  ok: boolean;
  content: string;
  memoryIds: string[];
  /** The user model changed: the next system prompt differs. */
  userModelChanged?: boolean;
}

const fail = (content: string): ToolOutcome => ({ ok: false, content: `Error: ${content}`, memoryIds: [] });

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 4)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

function parseArgs<S extends z.ZodType>(tool: string, schema: S, raw: string): { ok: true; args: z.output<S> } | { ok: false; out: ToolOutcome } {
  if (raw.length > MAX_TOOL_ARGS_CHARS) return { ok: false, out: fail(`the arguments of ${tool} are too long.`) };
  let json: unknown;
  try {
    json = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch (e) {
    return { ok: false, out: fail(`the arguments of ${tool} are not valid JSON (${(e as Error).message}). Send a JSON object.`) };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, out: fail(`invalid arguments for ${tool}: ${issues(parsed.error)}. Fix them and call again.`) };
  }
  return { ok: true, args: parsed.data };
}

/** Nothing written: the persona already holds the fact; the model can update that one instead. */
function alreadySaved(m: Memory): ToolOutcome {
  return {
    ok: true,
    content: `Nothing saved: already saved as [memory ${m.id}] "${m.content}" [${m.category ?? 'general'}, imp=${m.importance}, ${m.day}]. To change it, supersede that one.`,
    memoryIds: [],
  };
}

async function runMemory(ctx: CoreContext, scope: ToolScope, raw: string): Promise<ToolOutcome> {
  const p = parseArgs('memory', memoryArgs, raw);
  if (!p.ok) return p.out;
  if (p.args.action === 'delete') {
    const deleted = await deleteMemoryOfPersona(ctx, scope.persona, p.args.id);
    return deleted
      ? { ok: true, content: `Deleted memory ${p.args.id}.`, memoryIds: [] }
      : fail(`there is no memory ${p.args.id} in this persona.`);
  }
  const draft = {
    persona: scope.persona,
    content: p.args.content,
    category: p.args.category ?? null,
    importance: p.args.importance ?? 5,
    origin: 'explicit' as const,
    conversationId: scope.conversationId,
  };
  if (p.args.action === 'supersede') {
    const { memory: m, duplicateOf } = await writeSupersedingMemory(ctx, draft, p.args.id, p.args.reason ?? null);
    if (duplicateOf) return alreadySaved(m);
    return {
      ok: true,
      content: `Saved memory ${m.id} [${m.category ?? 'general'}, imp=${m.importance}, ${m.day}]; it supersedes memory ${p.args.id}, which is kept as history.`,
      memoryIds: [m.id],
    };
  }
  const { memory: m, duplicateOf } = await writeMemory(ctx, draft);
  if (duplicateOf) return alreadySaved(m);
  return { ok: true, content: `Saved memory ${m.id} [${m.category ?? 'general'}, imp=${m.importance}, ${m.day}].`, memoryIds: [m.id] };
}

async function runUserModel(ctx: CoreContext, scope: ToolScope, raw: string): Promise<ToolOutcome> {
  const p = parseArgs('user_model_write', userModelArgs, raw);
  if (!p.ok) return p.out;
  const e = await upsertUserModel(ctx, scope.persona, p.args.dimension, p.args.content, p.args.confidence ?? 5, {
    actor: 'tool',
    conversationId: scope.conversationId,
  });
  return { ok: true, content: `User model "${e.dimension}" updated (conf=${e.confidence}).`, memoryIds: [], userModelChanged: true };
}

async function runUserModelHistory(ctx: CoreContext, scope: ToolScope, raw: string): Promise<ToolOutcome> {
  const p = parseArgs('user_model_history', userModelHistoryArgs, raw);
  if (!p.ok) return p.out;
  return { ok: true, content: await userModelHistoryAsText(ctx, scope.persona, p.args.dimension), memoryIds: [] };
}

async function runRecall(ctx: CoreContext, scope: ToolScope, raw: string): Promise<ToolOutcome> {
  const p = parseArgs('recall', recallArgs, raw);
  if (!p.ok) return p.out;
  const filters = recallToolFilters(p.args);
  const text = await recallAsText(ctx, scope.persona, {
    query: p.args.query,
    limit: p.args.limit ?? 5,
    ...(p.args.date ? { date: p.args.date } : {}),
    ...(filters ? { filters } : {}),
  });
  return { ok: true, content: text, memoryIds: [] };
}

async function runIngest(ctx: CoreContext, scope: ToolScope, raw: string): Promise<ToolOutcome> {
  const p = parseArgs('knowledge_ingest', ingestArgs, raw);
  if (!p.ok) return p.out;
  const r = await ingestForTool(ctx, scope.persona, p.args);
  return {
    ok: true,
    content:
      r.status === 'ingested'
        ? `Ingested "${r.source}" into the knowledge base (${r.chunks} chunks).`
        : `Ingesting "${r.source}" in the background (job ${r.jobId}); it becomes searchable when done.`,
    memoryIds: [],
  };
}

const RUNNERS: Record<string, (ctx: CoreContext, scope: ToolScope, raw: string) => Promise<ToolOutcome>> = {
  memory: runMemory,
  recall: runRecall,
  user_model_write: runUserModel,
  user_model_history: runUserModelHistory,
  knowledge_ingest: runIngest,
};

/**
 * A model's arguments may hold a NUL (refused, like from any other caller) or
 * broken Unicode (replaced, and the model told so). Arguments that are not
 * JSON are left for the tool to report.
 */
function checkArgs(raw: string): { raw: string; refused?: string; note?: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { raw };
  }
  const checked = checkText(json);
  if (checked.nulAt !== null) return { raw, refused: nulRefused(checked.nulAt).message };
  if (!checked.replaced.length) return { raw };
  return { raw: JSON.stringify(checked.value), note: surrogateNote(checked.replaced) };
}

/**
 * Runs one tool call. Never throws: a bad call or a refused operation becomes
 * a tool error the model can read and correct.
 */
export async function runTool(ctx: CoreContext, scope: ToolScope, name: string, raw: string): Promise<ToolOutcome> {
  const runner = Object.prototype.hasOwnProperty.call(RUNNERS, name) ? RUNNERS[name] : undefined;
  if (!runner) return fail(`there is no tool named "${name.slice(0, 64)}". Available: ${Object.keys(RUNNERS).join(', ')}.`);
  if (scope.incognito && !READING_TOOLS.has(name)) {
    return fail(`${name} is not available: this is an incognito chat, which saves nothing. Available: ${[...READING_TOOLS].join(', ')}.`);
  }
  const args = checkArgs(raw);
  if (args.refused) return fail(`${name}: ${args.refused}`);
  try {
    const out = await runner(ctx, scope, args.raw);
    return args.note && out.ok ? { ...out, content: `${out.content}\n(Note: ${args.note})` } : out;
  } catch (e) {
    // Refusals (not found, too large, not configured) go back to the model; real bugs are logged too.
    if (!isAppError(e)) console.error(`[chat] tool ${name} failed:`, e);
    return fail(`${name} failed: ${(e as Error).message}`);
  }
}
