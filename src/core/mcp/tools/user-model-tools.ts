import { z } from 'zod';
import { userModelArgs } from '../../chat/tools/args';
import { defineTool, described } from './define';
import { userModelLine } from './format';

const dimensionText = 'The dimension’s name, e.g. baseline, preferences, working_patterns, feedback, goals (as listed by get_user_model).';

export const getUserModel = defineTool(
  {
    name: 'get_user_model',
    title: 'Read the user model',
    description:
      'Read what Hearth knows about the user as stable facts, one line per dimension (baseline, preferences, working_patterns, feedback, goals, …) ' +
      'with a confidence 1–10. Read it at the start of a conversation to personalise your answers.',
    writes: false,
    schema: described({}, {}),
    output: z.object({
      dimensions: z
        .array(
          z.object({
            dimension: z.string().describe('The dimension’s name.'),
            content: z.string().describe('What Hearth knows under it.'),
            confidence: z.number().int().describe('1–10.'),
            updatedAt: z.string().describe('When it last changed (ISO time).'),
          }),
        )
        .describe('One entry per dimension.'),
    }),
  },
  async (_args, scope) => {
    const entries = await scope.call('userModel.list', { persona: scope.persona });
    return {
      text: entries.length ? entries.map(userModelLine).join('\n') : 'The user model is empty.',
      data: { dimensions: entries.map((e) => ({ dimension: e.dimension, content: e.content, confidence: e.confidence, updatedAt: e.updatedAt })) },
    };
  },
);

const u = userModelArgs.shape;
export const updateUserModel = defineTool(
  {
    name: 'update_user_model',
    title: 'Update the user model',
    description:
      'Replace one dimension of the user model with its whole new content (read it first and merge: what you send replaces what was there). ' +
      'For stable facts about the user (preferences, working patterns, goals), not for events (use add_memory).',
    writes: true,
    idempotent: true,
    schema: described(
      { dimension: u.dimension, content: u.content, confidence: u.confidence },
      {
        dimension: `${dimensionText} A new name adds a dimension.`,
        content: 'The dimension’s whole new content (replaces what was there).',
        confidence: '1–10 (default 5): how sure you are it holds.',
      },
    ),
    output: z.object({ dimension: z.string().describe('The dimension written.'), confidence: z.number().int().describe('Its confidence, 1–10.') }),
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

export const deleteUserModel = defineTool(
  {
    name: 'delete_user_model',
    title: 'Delete one user-model dimension',
    description:
      'Remove exactly one dimension of the user model, only when the user asks Hearth to stop assuming it. There is no way to remove several at once; ' +
      'to correct a dimension, use update_user_model. Its earlier versions stay in Hearth’s history.',
    writes: true,
    destructive: true,
    idempotent: true,
    schema: described({ dimension: u.dimension }, { dimension: dimensionText }),
    output: z.object({
      dimension: z.string().describe('The dimension named.'),
      deleted: z.boolean().describe('True if it existed and is now removed; false if there was no such dimension.'),
    }),
  },
  async ({ dimension }, scope) => {
    const { deleted } = await scope.call('userModel.delete', { persona: scope.persona, dimension });
    return {
      text: deleted ? `User model "${dimension}" deleted.` : `The user model has no dimension "${dimension}"; nothing was changed.`,
      data: { dimension, deleted },
    };
  },
);
