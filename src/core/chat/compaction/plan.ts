import type { ChatMessage } from '../../../shared/api';
import { estimateTokens } from '../history';

export interface FoldPlan {
  fold: ChatMessage[];
  keep: ChatMessage[];
}

/** The recent tail kept verbatim: at least this many messages, and about half the budget. */
export const MIN_TAIL_MESSAGES = 4;

/**
 * Which unfolded messages fold into the summary: everything but a recent tail
 * of about half the budget. The cut never falls between an assistant's tool
 * calls and their results (it moves earlier, folding less).
 */
export function planFold(messages: ChatMessage[], budgetTokens: number): FoldPlan {
  let cut = messages.length;
  let tail = 0;
  while (cut > 0) {
    const cost = estimateTokens([messages[cut - 1]!]);
    const keptCount = messages.length - cut;
    if (keptCount >= MIN_TAIL_MESSAGES && tail + cost > budgetTokens / 2) break;
    tail += cost;
    cut--;
  }
  while (cut > 0 && cut < messages.length && messages[cut]!.role === 'tool') cut--;
  return { fold: messages.slice(0, cut), keep: messages.slice(cut) };
}

/** A slice as plain text for the flush and summary calls. */
export function renderSlice(messages: ChatMessage[], perMessage = 2_000): string {
  const clip = (s: string) => (s.length > perMessage ? `${s.slice(0, perMessage)}…` : s);
  return messages
    .map((m) => {
      if (m.role === 'tool') return `Tool result: ${clip(m.content)}`;
      const calls = (m.toolCalls ?? []).map((c) => `[called ${c.name} ${clip(c.arguments)}]`).join(' ');
      const who = m.role === 'user' ? 'User' : m.role === 'assistant' ? 'Assistant' : 'System';
      return `${who}: ${clip(m.content)}${calls ? ` ${calls}` : ''}`;
    })
    .join('\n');
}
