import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { expect, it } from 'vitest';
import { StreamAssembler } from './stream';

const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finish: 'tool_calls' | null = null): ChatCompletionChunk => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

it('joins tool-call fragments by index even when two calls interleave', () => {
  const acc = new StreamAssembler();
  acc.push(chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'recall', arguments: '' } }] }));
  acc.push(chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'memory', arguments: '{"action":' } }] }));
  acc.push(chunk({ tool_calls: [{ index: 1, function: { arguments: '{"query":"tea"}' } }] }));
  acc.push(chunk({ tool_calls: [{ index: 0, function: { arguments: '"write","content":"x"}' } }] }));
  expect(acc.push(chunk({ content: 'Saving.' }))).toBe('Saving.');
  acc.push(chunk({}, 'tool_calls'));
  expect(acc.result()).toEqual({
    content: 'Saving.',
    toolCalls: [
      { id: 'call_a', name: 'memory', arguments: '{"action":"write","content":"x"}' },
      { id: 'call_b', name: 'recall', arguments: '{"query":"tea"}' },
    ],
    finishReason: 'tool_calls',
    usage: null,
  });
});
