import type { ChatMessage } from '../../shared/api';
import type { LlmMessage } from '../providers/llm/types';

/**
 * Stored messages → what the model is sent. Every assistant tool call gets
 * exactly one result right after it (a stopped turn may have left some
 * unanswered; servers reject that), and stray tool results are dropped.
 */
export function toLlmHistory(messages: ChatMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'assistant') {
      const calls = m.toolCalls ?? [];
      if (calls.length === 0) {
        if (m.content) out.push({ role: 'assistant', content: m.content });
        continue;
      }
      out.push({ role: 'assistant', content: m.content, toolCalls: calls });
      const results = new Map<string, string>();
      let j = i + 1;
      for (; j < messages.length && messages[j]!.role === 'tool'; j++) {
        const t = messages[j]!;
        if (t.toolCallId) results.set(t.toolCallId, t.content);
      }
      for (const c of calls) {
        out.push({ role: 'tool', toolCallId: c.id, content: results.get(c.id) ?? 'Error: not run (the turn was stopped).' });
      }
      i = j - 1;
    }
    // tool results outside a call group, and system rows, are not replayed
  }
  return out;
}

/** Rough token estimate (≈ 4 characters a token), enough to decide when to compact. */
export function estimateTokens(messages: ChatMessage[], system = ''): number {
  let chars = system.length;
  for (const m of messages) chars += m.content.length + (m.toolCalls ? JSON.stringify(m.toolCalls).length : 0);
  return Math.ceil(chars / 4);
}
