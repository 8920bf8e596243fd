import { getApi } from '../../api';
import { errorInfo } from '../../lib/errors';
import { reportError } from '../../stores/toasts';
import { load } from './loading';
import type { ChatGet, ChatSet, ChatState } from './state';

/**
 * Leaving an incognito conversation (for another one, a new chat, another persona, or by
 * closing it) deletes it (docs/privacy.md). False when it could not be closed (a reply runs).
 */
export async function leaveIncognito(set: ChatSet, get: ChatGet): Promise<boolean> {
  const { persona, conversation, conversations } = get();
  if (!persona || !conversation || !conversations.find((c) => c.id === conversation)?.incognito) return true;
  try {
    await getApi().invoke('conversations.close', { persona, id: conversation });
  } catch (e) {
    reportError(e, 'Could not close the incognito chat');
    return false;
  }
  set((s) => ({ conversations: s.conversations.filter((c) => c.id !== conversation), ...(s.conversation === conversation ? { conversation: null, messages: [], summary: '' } : {}) }));
  return true;
}

export function incognitoActions(set: ChatSet, get: ChatGet): Pick<ChatState, 'closeIncognito'> {
  return {
    async closeIncognito(id) {
      const persona = get().persona;
      if (persona && id && id !== get().conversation) {
        // One left over from an earlier page (a reload keeps it until it is closed or Hearth restarts).
        try {
          await getApi().invoke('conversations.close', { persona, id });
          set((s) => ({ conversations: s.conversations.filter((c) => c.id !== id) }));
        } catch (e) {
          reportError(e, 'Could not close the incognito chat');
        }
        return;
      }
      if (!persona || !(await leaveIncognito(set, get))) return;
      try {
        await load(set, get, persona, undefined);
      } catch (e) {
        set({ error: errorInfo(e) });
      }
    },
  };
}
