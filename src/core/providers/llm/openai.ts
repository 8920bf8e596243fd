import type OpenAI from 'openai';
import { AppError } from '../../../shared/errors';
import { withRequestSignal } from '../../abort';
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { loadOpenAi } from '../openai-lib';
import { mapProviderError } from './errors';
import { StreamAssembler } from './stream';
import { toOpenAiMessages, toOpenAiTools } from './to-openai';
import type { ChatProvider, ChatProviderConfig, LlmChatOptions, LlmChatResult, LlmMessage, LlmTool } from './types';

const OPENAI_URL = 'https://api.openai.com/v1';

const withoutNul = (s: string) => (s.includes('\u0000') ? s.replaceAll('\u0000', '') : s);

/** OpenAI or any OpenAI-compatible server (Ollama, llama.cpp, LM Studio). */
export class OpenAiChatProvider implements ChatProvider {
  readonly model: string;
  private client: Promise<OpenAI> | null = null;
  private where: string;

  constructor(private config: ChatProviderConfig) {
    this.model = config.model;
    this.where = config.baseUrl ?? OPENAI_URL;
  }

  /** Made at the first request (openai-lib.ts). */
  private openAi(): Promise<OpenAI> {
    this.client ??= loadOpenAi().then(
      ({ default: Client }) =>
        new Client({
          baseURL: this.where,
          // Local servers ignore the key, but the client insists on one.
          apiKey: this.config.apiKey ?? 'not-needed',
          maxRetries: this.config.maxRetries ?? 2,
          timeout: this.config.timeoutMs ?? 120_000,
        }),
    );
    return this.client;
  }

  async chat(messages: LlmMessage[], tools: LlmTool[], options: LlmChatOptions = {}): Promise<LlmChatResult> {
    const base: ChatCompletionCreateParams = {
      model: this.model,
      messages: toOpenAiMessages(messages),
      ...(tools.length > 0 ? { tools: toOpenAiTools(tools) } : {}),
      ...(options.jsonSchema
        ? {
            response_format: {
              type: 'json_schema' as const,
              json_schema: { name: options.jsonSchema.name, schema: options.jsonSchema.schema, strict: false },
            },
          }
        : {}),
    };
    // A NUL means nothing in a model's text and Postgres cannot store it: it is dropped here.
    const onToken = options.onToken && ((delta: string) => options.onToken!(withoutNul(delta)));
    const r = await withRequestSignal(options.signal, (signal) => this.send(base, { ...options, onToken }, signal));
    return {
      ...r,
      content: withoutNul(r.content),
      toolCalls: r.toolCalls.map((c) => ({ ...c, arguments: withoutNul(c.arguments) })),
    };
  }

  private async send(base: ChatCompletionCreateParams, options: LlmChatOptions, signal: AbortSignal | undefined): Promise<LlmChatResult> {
    try {
      const client = await this.openAi();
      if (!options.onToken) {
        const res = await client.chat.completions.create({ ...base, stream: false }, { signal });
        const choice = res.choices[0];
        return {
          content: choice?.message.content ?? '',
          toolCalls: (choice?.message.tool_calls ?? []).flatMap((c) =>
            c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
          ),
          finishReason: choice?.finish_reason ?? null,
          usage: res.usage ? { promptTokens: res.usage.prompt_tokens, completionTokens: res.usage.completion_tokens } : null,
        };
      }
      const stream = await client.chat.completions.create({ ...base, stream: true }, { signal });
      const acc = new StreamAssembler();
      for await (const chunk of stream) {
        const delta = acc.push(chunk);
        if (delta) options.onToken(delta);
      }
      // An aborted stream just ends (no error from the client): say so, or a stopped reply would look complete.
      if (signal?.aborted) throw new AppError('cancelled', 'The reply was stopped.');
      return acc.result();
    } catch (e) {
      throw mapProviderError(e, this.where, signal);
    }
  }
}
