import type { SectionFormSpec } from '../section-form';
import { orNull, urlProblem } from '../validate';

export interface ChatForm extends Record<string, string> {
  baseUrl: string;
  model: string;
  key: string;
}

export const chatFormSpec: SectionFormSpec<ChatForm> = {
  label: 'Chat model',
  savedMessage: 'Chat model saved.',
  read: (s) => ({ baseUrl: s.chat.baseUrl ?? '', model: s.chat.model ?? '', key: '' }),
  validate(f) {
    return {
      baseUrl: urlProblem(f.baseUrl),
      model: f.model.trim() ? undefined : 'Name the model to chat with, e.g. gpt-4o-mini or llama3.1.',
    };
  },
  toPatch(f) {
    // A key is sent only when one was typed: an empty field never erases the stored key.
    return { chat: { baseUrl: orNull(f.baseUrl), model: orNull(f.model), ...(f.key.trim() ? { apiKey: f.key.trim() } : {}) } };
  },
  fieldFor(path) {
    if (path === 'chat.baseUrl') return 'baseUrl';
    if (path === 'chat.model') return 'model';
    if (path === 'chat.apiKey') return 'key';
    return null;
  },
};
