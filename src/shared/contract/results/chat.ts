import { z } from 'zod';
import { time } from './common';

export const chatToolCall = z.strictObject({
  id: z.string(),
  name: z.string(),
  arguments: z.string().describe('Raw JSON text as the model sent it.'),
});

export const chatMessage = z.strictObject({
  id: z.string(),
  role: z.enum(['user', 'assistant', 'tool', 'system']),
  content: z.string(),
  toolCalls: z.array(chatToolCall).nullable(),
  toolCallId: z.string().nullable(),
  memoryIds: z
    .array(z.string())
    .nullable()
    .describe('For tool results: memories this call wrote, for the chips in the transcript.'),
  folded: z.boolean(),
  createdAt: time,
});

export const chatPrompt = z.strictObject({
  system: z.string(),
  blocks: z.strictObject({ base: z.string(), userModel: z.string(), topMemories: z.string(), summary: z.string() }),
});

/** A message of a past conversation that holds the words searched for (conversations.search). */
export const conversationHit = z.strictObject({
  conversation: z.string(),
  title: z.string().describe("The conversation's title, or its first message when it has none."),
  message: z.string(),
  role: z.enum(['user', 'assistant']),
  snippet: z.string().describe('The message around the words found.'),
  createdAt: time,
});

/** One of a persona's conversations, as the conversation list shows it. */
export const conversationInfo = z.strictObject({
  id: z.string(),
  title: z.string().describe("Given by the person; '' until renamed (the UI then shows the first message)."),
  firstMessage: z.string().nullable(),
  messages: z.number().describe('User and assistant messages.'),
  createdAt: time,
  updatedAt: time,
  incognito: z
    .boolean()
    .describe("Reads the persona's memory but writes nothing, and is deleted when closed (docs/privacy.md)."),
});
