// "Test connection" in Settings: one real request to the chat model (the saved one, or the
// values in the form before they are saved) or the saved embedding model, and the server's
// model list when it has one. Failures are answers here (the exact error, shown
// beside the button), not thrown, so the page never turns them into a generic toast.
import type { ConnectionTest } from '../../shared/api';
import { AppError } from '../../shared/errors';
import { plural } from '../../shared/plural';
import { OPENAI_API_URL, chatKeyOwner } from '../../shared/key-owner';
import type { CoreContext } from '../context';
import { createEmbeddingProvider } from '../providers/embeddings/create';
import { chatProviderFrom } from '../providers/llm/config';
import { loadOpenAi } from '../providers/openai-lib';
import { type ChatSettings, loadChatSettings } from './chat-settings';
import { readKey } from './keys';
import { embeddingConfig } from './store';
import { SECRET_CHAT_KEY } from './types';

const TIMEOUT_MS = 20_000;

function failure(e: unknown, started: number): ConnectionTest {
  let err = e instanceof AppError ? e : new AppError('provider_error', (e as Error)?.message ?? String(e));
  // Our own time limit ends the request as "stopped": say what happened instead.
  if (err.code === 'cancelled') err = new AppError('provider_unreachable', `No answer within ${TIMEOUT_MS / 1000} s.`);
  return { ok: false, code: err.code, message: err.message, ms: Date.now() - started, models: null };
}

/** The ids the server's GET /models lists, or null when it does not answer (many local servers lack it). */
async function listModels(baseUrl: string | null, apiKey: string | null): Promise<string[] | null> {
  try {
    const { default: OpenAI } = await loadOpenAi();
    const client = new OpenAI({ baseURL: baseUrl ?? OPENAI_API_URL, apiKey: apiKey ?? 'not-needed', maxRetries: 0, timeout: 10_000 });
    const page = await client.models.list();
    return page.data.map((m) => m.id).sort();
  } catch {
    return null;
  }
}

/** Values typed in Settings → Chat model, not saved yet. */
export interface ChatDraft {
  baseUrl: string | null;
  model: string | null;
  apiKey?: string;
}

/**
 * The settings a test uses: the saved ones, or the draft's. A draft without a key gets the
 * stored key only when that key was entered for the draft's base URL, so a test never sends
 * it to a server it was not meant for (docs/security.md).
 */
async function chatSettingsFor(ctx: CoreContext, draft: ChatDraft | undefined): Promise<ChatSettings> {
  const saved = await loadChatSettings(ctx);
  if (!draft) return saved;
  const apiKey = draft.apiKey ?? (await readKey(ctx.secrets, SECRET_CHAT_KEY, chatKeyOwner(draft)));
  return { ...saved, chat: { baseUrl: draft.baseUrl, model: draft.model, apiKey } };
}

export async function testChat(ctx: CoreContext, draft?: ChatDraft): Promise<ConnectionTest> {
  const started = Date.now();
  if (draft && !draft.model) {
    // Only a server typed so far: its model list is the help a person needs to pick one.
    const s = await chatSettingsFor(ctx, draft);
    const models = await listModels(s.chat.baseUrl, s.chat.apiKey);
    const message = models?.length
      ? `Pick a model: this server lists ${plural(models.length, 'model')} in the Model field.`
      : 'Name the model to test, e.g. gpt-4o-mini or llama3.1.';
    return { ok: false, code: 'not_configured', message, ms: Date.now() - started, models };
  }
  try {
    const settings = await chatSettingsFor(ctx, draft);
    // A connection test carries no persona's content.
    const provider = chatProviderFrom(settings, 'no-persona');
    const [res, models] = await Promise.all([
      provider.chat([{ role: 'user', content: 'This is a connection test. Reply with one short sentence.' }], [], {
        signal: AbortSignal.timeout(TIMEOUT_MS),
      }),
      listModels(settings.chat.baseUrl, settings.chat.apiKey),
    ]);
    const answer = res.content.trim().slice(0, 300);
    return { ok: true, detail: answer ? `${provider.model} answered: “${answer}”` : `${provider.model} answered (an empty reply).`, ms: Date.now() - started, models };
  } catch (e) {
    const s = await chatSettingsFor(ctx, draft).catch(() => null);
    const out = failure(e, started);
    return s ? { ...out, models: await listModels(s.chat.baseUrl, s.chat.apiKey) } : out;
  }
}

export async function testEmbeddings(ctx: CoreContext): Promise<ConnectionTest> {
  const started = Date.now();
  const { config, apiKey } = await embeddingConfig(ctx);
  const models = config.provider === 'local' ? null : listModels(config.baseUrl, apiKey);
  const provider = createEmbeddingProvider(config, apiKey, { timeoutMs: TIMEOUT_MS });
  try {
    const [vector] = await provider.embed(['Hearth connection test'], { urgent: true });
    return { ok: true, detail: `${config.model} returned a vector of ${vector!.length} dimensions.`, ms: Date.now() - started, models: await models };
  } catch (e) {
    return { ...failure(e, started), models: await models };
  } finally {
    await provider.close();
  }
}
