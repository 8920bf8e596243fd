import { AppError } from '../../shared/errors';
import { EMBEDDING_DEFAULTS, type EmbeddingConfig } from '../providers/embeddings/config';
import type { SettingsPatchInput } from './schema';
import type { Settings } from './types';

type EmbeddingsPatch = NonNullable<SettingsPatchInput['embeddings']>;

/** A refused embeddings field; the path lets the settings form show it beside that field. */
function invalid(field: 'provider' | 'baseUrl' | 'model' | 'dimensions', message: string): AppError {
  return new AppError('invalid_args', message, { issues: [{ path: `embeddings.${field}`, message }] });
}

/**
 * The embedding settings after a patch. Staying on the same provider merges
 * field by field; switching starts from the new provider's defaults. `null`
 * puts a field back to its default.
 */
export function mergeEmbeddings(current: EmbeddingConfig, patch: EmbeddingsPatch): EmbeddingConfig {
  const base = patch.provider === current.provider ? current : EMBEDDING_DEFAULTS[patch.provider];
  const def = EMBEDDING_DEFAULTS[patch.provider];
  const pick = <K extends 'baseUrl' | 'model' | 'dimensions'>(k: K): EmbeddingConfig[K] | null | undefined => {
    const v = patch[k];
    if (v === null) return def ? def[k] : null;
    if (v === undefined) return base ? base[k] : undefined;
    return v as EmbeddingConfig[K];
  };
  const baseUrl = pick('baseUrl') ?? null;
  const model = pick('model');
  const dims = pick('dimensions');
  switch (patch.provider) {
    case 'local':
      if (patch.baseUrl || (patch.model && patch.model !== def!.model) || (patch.dimensions && patch.dimensions !== def!.dimensions)) {
        throw invalid('provider', `The built-in embedder is fixed (${def!.model}, ${def!.dimensions} dimensions, no URL).`);
      }
      return { ...def! };
    case 'openai':
      if (dims !== 1536) throw invalid('dimensions', 'OpenAI embeddings are requested at 1536 dimensions, the size the database holds.');
      return { provider: 'openai', baseUrl, model: model ?? def!.model, dimensions: 1536 };
    case 'compatible':
      if (!baseUrl) throw invalid('baseUrl', 'An OpenAI-compatible embedding server needs its base URL (e.g. http://127.0.0.1:11434/v1).');
      if (!model) throw invalid('model', 'An OpenAI-compatible embedding server needs the model name.');
      if (!dims) throw invalid('dimensions', 'An OpenAI-compatible embedding server needs the size of its vectors (dimensions, 1 to 1536).');
      return { provider: 'compatible', baseUrl, model, dimensions: dims };
  }
}

/** The non-secret settings after a patch; only the keys that change are returned. */
export function mergeSettings(current: Settings, patch: SettingsPatchInput): Partial<Settings> {
  const next: Partial<Settings> = {};
  if (patch.chat && (patch.chat.baseUrl !== undefined || patch.chat.model !== undefined)) {
    next.chat = {
      baseUrl: patch.chat.baseUrl === undefined ? current.chat.baseUrl : patch.chat.baseUrl,
      model: patch.chat.model === undefined ? current.chat.model : patch.chat.model,
    };
  }
  if (patch.embeddings) next.embeddings = mergeEmbeddings(current.embeddings, patch.embeddings);
  if (patch.reviewEvery !== undefined) next.reviewEvery = patch.reviewEvery;
  if (patch.contextBudgetTokens !== undefined) next.contextBudgetTokens = patch.contextBudgetTokens;
  if (patch.workspaceDir !== undefined) next.workspaceDir = patch.workspaceDir;
  if (patch.maxIngestBytes !== undefined) next.maxIngestBytes = patch.maxIngestBytes;
  if (patch.durableCommits !== undefined) next.durableCommits = patch.durableCommits;
  if (patch.backupsKeep !== undefined) next.backupsKeep = patch.backupsKeep;
  if (patch.trashDays !== undefined) next.trashDays = patch.trashDays;
  if (patch.recallRewrite !== undefined) next.recallRewrite = patch.recallRewrite;
  if (patch.welcomeDismissed !== undefined) next.welcomeDismissed = patch.welcomeDismissed;
  if (patch.theme !== undefined) next.theme = patch.theme;
  return next;
}
