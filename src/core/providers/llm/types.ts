// The chat model behind one small interface, so the agent loop never knows
// which server (OpenAI, Ollama, llama.cpp, LM Studio) answers.

export interface LlmToolCall {
  id: string;
  name: string;
  /** Raw JSON text as the model sent it; validated by the tool, never trusted. */
  arguments: string;
}

export type LlmMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; content: string; toolCallId: string };

export interface LlmTool {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface LlmChatOptions {
  signal?: AbortSignal;
  /** Called with each streamed text delta; when absent the call does not stream. */
  onToken?: (delta: string) => void;
  /** Structured output: the model must answer JSON matching this schema. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface LlmChatResult {
  content: string;
  toolCalls: LlmToolCall[];
  finishReason: string | null;
  usage: LlmUsage | null;
}

export interface ChatProvider {
  readonly model: string;
  chat(messages: LlmMessage[], tools: LlmTool[], options?: LlmChatOptions): Promise<LlmChatResult>;
}

export interface ChatProviderConfig {
  baseUrl: string | null;
  model: string;
  apiKey: string | null;
  /** The client's own retries; tests and jobs that retry themselves pass 0. */
  maxRetries?: number;
  timeoutMs?: number;
}
