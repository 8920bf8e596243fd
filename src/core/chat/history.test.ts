import { expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/api';
import { toLlmHistory } from './history';

const m = (role: ChatMessage['role'], content: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id: String(Math.random()),
  role,
  content,
  toolCalls: null,
  toolCallId: null,
  memoryIds: null,
  folded: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});

it('gives every tool call exactly one result, even when a stopped turn left some unanswered', () => {
  const calls = [
    { id: 'a', name: 'recall', arguments: '{}' },
    { id: 'b', name: 'memory', arguments: '{}' },
  ];
  const out = toLlmHistory([
    m('user', 'hi'),
    m('assistant', '', { toolCalls: calls }),
    m('tool', 'result a', { toolCallId: 'a' }),
    m('assistant', ''), // a stream stopped before any token
    m('tool', 'stray', { toolCallId: 'zzz' }),
    m('user', 'again'),
  ]);
  expect(out).toEqual([
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: '', toolCalls: calls },
    { role: 'tool', toolCallId: 'a', content: 'result a' },
    { role: 'tool', toolCallId: 'b', content: 'Error: not run (the turn was stopped).' },
    { role: 'user', content: 'again' },
  ]);
});
