import type { SettingsView } from '../../../../shared/api';
import { settingFields } from '../../../../shared/settings';
import type { SectionFormSpec } from '../section-form';
import { orNull, urlProblem, wholeNumberProblem } from '../validate';

export type Provider = SettingsView['embeddings']['provider'];

export interface EmbeddingsForm extends Record<string, string> {
  provider: Provider;
  baseUrl: string;
  model: string;
  dimensions: string;
  key: string;
}

function read(s: SettingsView): EmbeddingsForm {
  const e = s.embeddings;
  return { provider: e.provider, baseUrl: e.baseUrl ?? '', model: e.model, dimensions: String(e.dimensions), key: '' };
}

/** Switching provider starts from that provider's defaults (or what is stored, when switching back). */
export function switchProvider(f: EmbeddingsForm, p: Provider, s: SettingsView): EmbeddingsForm {
  if (p === s.embeddings.provider) return { ...read(s), key: f.key };
  if (p === 'openai') return { ...f, provider: p, baseUrl: '', model: 'text-embedding-3-small', dimensions: '1536' };
  if (p === 'local') return { ...f, provider: p, baseUrl: '', model: '', dimensions: '' };
  return { ...f, provider: p, baseUrl: '', model: '', dimensions: '' };
}

export const embeddingsFormSpec: SectionFormSpec<EmbeddingsForm> = {
  label: 'Embeddings',
  savedMessage: 'Embedding provider saved.',
  read,
  validate(f) {
    if (f.provider === 'local') return {};
    return {
      baseUrl: f.provider === 'compatible' ? urlProblem(f.baseUrl, true) : undefined,
      model: f.model.trim() ? undefined : 'Name the embedding model, e.g. nomic-embed-text.',
      dimensions: f.provider === 'compatible' ? wholeNumberProblem(f.dimensions, settingFields.dimensions) : undefined,
    };
  },
  toPatch(f) {
    if (f.provider === 'local') return { embeddings: { provider: 'local' } };
    return {
      embeddings: {
        provider: f.provider,
        baseUrl: f.provider === 'compatible' ? orNull(f.baseUrl) : null,
        model: orNull(f.model),
        // OpenAI is always asked for 1536 dimensions (the database's size): only a compatible server has a choice.
        ...(f.provider === 'compatible' ? { dimensions: Number(f.dimensions) } : {}),
        ...(f.key.trim() ? { apiKey: f.key.trim() } : {}),
      },
    };
  },
  fieldFor(path) {
    const m = /^embeddings\.(baseUrl|model|dimensions|apiKey)$/.exec(path);
    if (!m) return null;
    return m[1] === 'apiKey' ? 'key' : (m[1] as 'baseUrl' | 'model' | 'dimensions');
  },
};
