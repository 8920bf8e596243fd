import type { McpTool } from './define';
import { addMemory, deleteMemory, getMemory, listMemories, searchMemory, supersedeMemory, updateMemory } from './memory-tools';
import { deleteUserModel, getUserModel, updateUserModel } from './user-model-tools';

export type { McpTool, ToolAnswer, ToolScope } from './define';

/** The tools every connection offers (names and arguments are part of the product's contract). */
export const MCP_TOOLS: readonly McpTool[] = [
  searchMemory,
  addMemory,
  listMemories,
  getMemory,
  updateMemory,
  supersedeMemory,
  deleteMemory,
  getUserModel,
  updateUserModel,
  deleteUserModel,
];
