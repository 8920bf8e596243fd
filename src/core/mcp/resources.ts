import type { ToolScope } from './tools';

export interface McpResource {
  key: string;
  name: string;
  title: string;
  description: string;
  read(scope: ToolScope): Promise<string>;
}

export function resourceUri(persona: string, key: string): string {
  return `hearth://personas/${persona}/${key}`;
}

/** The two blocks Hearth's own chat puts in its system prompt, for hosts that read resources. */
export const MCP_RESOURCES: readonly McpResource[] = [
  {
    key: 'user-model',
    name: 'user-model',
    title: 'User model',
    description: 'Stable facts about the user, one line per dimension with a confidence (1–10).',
    // The block names the chat's own tool; an MCP client has update_user_model instead.
    read: async (scope) => (await scope.call('userModel.block', { persona: scope.persona })).replace('`user_model_write`', '`update_user_model`'),
  },
  {
    key: 'top-memories',
    name: 'top-memories',
    title: 'Top memories',
    description: 'The 20 most important current memories of this persona, each with its [memory <id> …] tag.',
    read: (scope) => scope.call('memories.topBlock', { persona: scope.persona, withIds: true }),
  },
];
