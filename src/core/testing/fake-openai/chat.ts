import type { ServerResponse } from 'node:http';
import { type FakeServer, sendError, sendJson } from './server';

/** One scripted answer of the fake `/v1/chat/completions`. */
export type FakeReply =
  | { text: string; chunks?: number }
  | { toolCalls: { name: string; arguments: string; id?: string }[]; text?: string }
  | { error: number; message?: string; code?: string }
  /** Never answers (until the client aborts): for cancel tests. Streams `text` first when streaming. */
  | { hang: true; text?: string };

export interface ChatRequestBody {
  model?: string;
  stream?: boolean;
  messages: { role: string; content: string | null; tool_calls?: unknown; tool_call_id?: string }[];
  tools?: { function: { name: string } }[];
  response_format?: { type: string; json_schema?: { name?: string } };
}

export interface FakeChat {
  /** Queue answers, served in order. */
  push(...replies: FakeReply[]): void;
  /** Answers when the queue is empty (default: a short plain reply). */
  fallback: (body: ChatRequestBody) => FakeReply;
  /** Every chat request body received, in order. */
  readonly requests: ChatRequestBody[];
  /** Pending scripted replies. */
  pending(): number;
  /** Forgets queued replies and recorded requests and restores the default fallback: for a server shared by a file's tests. */
  reset(): void;
}

function completion(next: () => number, body: ChatRequestBody, reply: Exclude<FakeReply, { error: number } | { hang: true }>) {
  const toolCalls =
    'toolCalls' in reply
      ? reply.toolCalls.map((c) => ({
          id: c.id ?? `call_${next()}`,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        }))
      : undefined;
  return {
    id: `chatcmpl-${next()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model ?? 'fake',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.text ?? null, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
        finish_reason: toolCalls ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function sse(res: ServerResponse, data: unknown): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

function split(text: string, parts: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function chunk(id: string, delta: Record<string, unknown>, finish: string | null = null) {
  return { id, object: 'chat.completion.chunk', created: 0, model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }] };
}

function streamReply(next: () => number, res: ServerResponse, reply: Exclude<FakeReply, { error: number }>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = `chatcmpl-${next()}`;
  sse(res, chunk(id, { role: 'assistant', content: '' }));
  const text = reply.text ?? '';
  for (const part of split(text, 'chunks' in reply && reply.chunks ? reply.chunks : 4)) sse(res, chunk(id, { content: part }));
  if ('hang' in reply) return; // leave the response open; the client's abort closes it
  if ('toolCalls' in reply) {
    // Each call in two fragments, as real servers do: id+name first, then the arguments in pieces.
    reply.toolCalls.forEach((c, index) => {
      const callId = c.id ?? `call_${next()}`;
      sse(res, chunk(id, { tool_calls: [{ index, id: callId, type: 'function', function: { name: c.name, arguments: '' } }] }));
      for (const part of split(c.arguments, 2)) {
        sse(res, chunk(id, { tool_calls: [{ index, function: { arguments: part } }] }));
      }
    });
  }
  sse(res, chunk(id, {}, 'toolCalls' in reply ? 'tool_calls' : 'stop'));
  res.write('data: [DONE]\n\n');
  res.end();
}

/** Adds a scripted `/v1/chat/completions` to a fake server. */
export function installChatRoutes(server: FakeServer): FakeChat {
  let seq = 0;
  const next = () => ++seq;
  const queue: FakeReply[] = [];
  const requests: ChatRequestBody[] = [];
  const defaultFallback = (): FakeReply => ({ text: 'OK.' });
  const fake: FakeChat = {
    push: (...r) => void queue.push(...r),
    fallback: defaultFallback,
    requests,
    pending: () => queue.length,
    reset() {
      queue.length = 0;
      requests.length = 0;
      fake.fallback = defaultFallback;
    },
  };
  server.route('POST', '/chat/completions', (_req, raw, res) => {
    const body = raw as ChatRequestBody;
    requests.push(body);
    const reply = queue.shift() ?? fake.fallback(body);
    if ('error' in reply) {
      const type = reply.error === 401 ? 'invalid_request_error' : 'server_error';
      if (reply.code) {
        return sendJson(res, reply.error, { error: { message: reply.message ?? reply.code, type, code: reply.code, param: null } });
      }
      return sendError(res, reply.error, reply.message ?? `fake error ${reply.error}`, type);
    }
    if (body.stream) return streamReply(next, res, reply);
    if ('hang' in reply) return; // never answers
    sendJson(res, 200, completion(next, body, reply));
  });
  return fake;
}
