import { z } from 'zod';
import { userModelArgs } from '../../chat/tools/args';
import { defineTool } from './define';
import { userModelLine } from './format';

export const getUserModel = defineTool(
  {
    name: 'get_user_model',
    title: 'Read the user model',
    description:
      'Read what Hearth knows about the user as stable facts, one line per dimension (baseline, preferences, working_patterns, feedback, goals, …) ' +
      'with a confidence 1–10. Read it at the start of a conversation to personalise your answers.',
    writes: false,
    schema: z.object({}).strict(),
  },
  async (_args, scope) => {
    const entries = await scope.call('userModel.list', { persona: scope.persona });
    return {
      text: entries.length ? entries.map(userModelLine).join('\n') : 'The user model is empty.',
      data: { dimensions: entries.map((e) => ({ dimension: e.dimension, content: e.content, confidence: e.confidence, updatedAt: e.updatedAt })) },
    };
  },
);

export const updateUserModel = defineTool(
  {
    name: 'update_user_model',
    title: 'Update the user model',
    description:
      'Replace one dimension of the user model with its whole new content (read it first and merge: what you send replaces what was there). ' +
      'For stable facts about the user (preferences, working patterns, goals), not for events (use add_memory). ' +
      '`confidence` 1–10 (default 5): how sure you are it holds.',
    writes: true,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    schema: userModelArgs.strict(),
  },
  async (args, scope) => {
    const e = await scope.call('userModel.upsert', {
      persona: scope.persona,
      dimension: args.dimension,
      content: args.content,
      confidence: args.confidence ?? 5,
    });
    return { text: `User model "${e.dimension}" updated (conf=${e.confidence}).`, data: { dimension: e.dimension, confidence: e.confidence } };
  },
);
