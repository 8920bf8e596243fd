import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { LlmChatResult, LlmToolCall } from './types';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Assembles a streamed reply. Tool-call fragments arrive keyed by `index`
 * (the id and name only on the first fragment), so they are joined by index,
 * never by arrival order.
 */
export class StreamAssembler {
  private content = '';
  private calls = new Map<number, PartialCall>();
  private finishReason: string | null = null;
  private usage: LlmChatResult['usage'] = null;

  /** Returns the text delta of this chunk ('' when none). */
  push(chunk: ChatCompletionChunk): string {
    if (chunk.usage) {
      this.usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
    }
    let text = '';
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== 0) continue;
      const delta = choice.delta;
      if (delta?.content) text += delta.content;
      for (const tc of delta?.tool_calls ?? []) {
        const call = this.calls.get(tc.index) ?? { id: '', name: '', arguments: '' };
        if (tc.id) call.id = tc.id;
        if (tc.function?.name) call.name += tc.function.name;
        if (tc.function?.arguments) call.arguments += tc.function.arguments;
        this.calls.set(tc.index, call);
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    this.content += text;
    return text;
  }

  result(): LlmChatResult {
    const toolCalls: LlmToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({ id: c.id || `call_${index}`, name: c.name, arguments: c.arguments }));
    return { content: this.content, toolCalls, finishReason: this.finishReason, usage: this.usage };
  }
}
