import type { ChatMessage } from '../../../shared/api';

const PER_MESSAGE = 1_200;
const TOTAL = 12_000;

/**
 * A compact recent slice for the review: user and assistant text only (tool
 * chatter left out), each message clipped, newest kept when over the bound.
 */
export function transcriptSlice(messages: ChatMessage[]): string {
  const lines: string[] = [];
  let total = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if ((m.role !== 'user' && m.role !== 'assistant') || !m.content.trim()) continue;
    const text = m.content.length > PER_MESSAGE ? `${m.content.slice(0, PER_MESSAGE)}…` : m.content;
    const line = `${m.role === 'user' ? 'User' : 'Assistant'}: ${text}`;
    if (total + line.length > TOTAL) break;
    lines.push(line);
    total += line.length;
  }
  return lines.reverse().join('\n');
}
