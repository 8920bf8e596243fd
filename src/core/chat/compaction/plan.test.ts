import { expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/api';
import { planFold } from './plan';

let seq = 0;
function msg(role: ChatMessage['role'], chars: number, extra: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: String(++seq),
    role,
    content: 'x'.repeat(chars),
    toolCalls: null,
    toolCallId: null,
    memoryIds: null,
    folded: false,
    createdAt: new Date().toISOString(),
    ...extra,
  };
}

it('folds the old part and keeps a recent tail of about half the budget', () => {
  const ms = Array.from({ length: 10 }, (_, i) => msg(i % 2 ? 'assistant' : 'user', 2000)); // 500 tokens each
  const plan = planFold(ms, 4000);
  expect(plan.keep).toHaveLength(4);
  expect(plan.fold.map((m) => m.id)).toEqual(ms.slice(0, 6).map((m) => m.id));
});

it('never cuts between an assistant tool call and its results', () => {
  const ms = [
    msg('user', 4000),
    msg('assistant', 4000),
    msg('user', 400),
    msg('assistant', 10, { toolCalls: [{ id: 'a', name: 'recall', arguments: '{}' }, { id: 'b', name: 'recall', arguments: '{}' }] }),
    msg('tool', 4000, { toolCallId: 'a' }),
    msg('tool', 100, { toolCallId: 'b' }),
    msg('assistant', 100),
    msg('user', 100),
    msg('assistant', 100),
  ];
  // By size the tail would start at the second tool result: the cut moves back to the call.
  const plan = planFold(ms, 2000);
  expect(plan.keep[0]!.role).toBe('assistant');
  expect(plan.keep[0]!.toolCalls).not.toBeNull();
  expect(plan.fold.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  for (const p of [plan.fold, plan.keep]) expect(p[0]?.role).not.toBe('tool');
});

it('folds nothing when everything fits in the tail', () => {
  const ms = [msg('user', 10), msg('assistant', 10)];
  expect(planFold(ms, 2000)).toEqual({ fold: [], keep: ms });
});
