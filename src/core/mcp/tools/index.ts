import type { McpTool } from './define';
import { addMemory, deleteMemory, getMemory, listMemories, searchMemory, updateMemory } from './memory-tools';
import { getUserModel, updateUserModel } from './user-model-tools';

export type { McpTool, ToolAnswer, ToolScope } from './define';

/** The tools every connection offers (names and arguments are part of the product's contract). */
export const MCP_TOOLS: readonly McpTool[] = [
  searchMemory,
  addMemory,
  listMemories,
  getMemory,
  updateMemory,
  deleteMemory,
  getUserModel,
  updateUserModel,
];
