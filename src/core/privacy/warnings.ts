// What a local-only persona loses with the providers Settings names now
// (docs/privacy.md): one sentence per model call the guard will refuse.
import type { CoreContext } from '../context';
import { OPENAI_API_URL } from '../../shared/key-owner';
import { isThisComputer, localOnlyWarning } from '../providers/locality';
import { readSettings } from '../settings/store';

export async function localOnlyWarnings(ctx: Pick<CoreContext, 'db'>, personaName: string): Promise<string[]> {
  const s = await readSettings(ctx);
  const out: string[] = [];
  const chatAt = s.chat.baseUrl ?? OPENAI_API_URL;
  if (s.chat.model && !isThisComputer(chatAt)) out.push(localOnlyWarning('chat', personaName, chatAt));
  const e = s.embeddings;
  const embedAt = e.provider === 'local' ? null : (e.baseUrl ?? OPENAI_API_URL);
  if (embedAt !== null && !isThisComputer(embedAt)) out.push(localOnlyWarning('embeddings', personaName, embedAt));
  return out;
}
