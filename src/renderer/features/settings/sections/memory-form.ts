import type { SectionFormSpec } from '../section-form';
import { absolutePathProblem, orNull, wholeNumberProblem } from '../validate';

export interface MemoryForm extends Record<string, string> {
  reviewEvery: string;
  contextBudget: string;
  workspaceDir: string;
  /** 'on' or 'off' (the form holds text): recall may ask the chat model for search queries. */
  recallRewrite: string;
}

export const memoryFormSpec: SectionFormSpec<MemoryForm> = {
  label: 'Memory and context',
  savedMessage: 'Memory and context settings saved.',
  read: (s) => ({
    reviewEvery: String(s.reviewEvery),
    contextBudget: String(s.contextBudgetTokens),
    workspaceDir: s.workspaceDir ?? '',
    recallRewrite: s.recallRewrite ? 'on' : 'off',
  }),
  validate(f) {
    return {
      reviewEvery: wholeNumberProblem(f.reviewEvery, 1, 1000, 'messages'),
      contextBudget: wholeNumberProblem(f.contextBudget, 2000, 2_000_000, 'tokens'),
      workspaceDir: absolutePathProblem(f.workspaceDir),
    };
  },
  toPatch(f) {
    return {
      reviewEvery: Number(f.reviewEvery),
      contextBudgetTokens: Number(f.contextBudget),
      workspaceDir: orNull(f.workspaceDir),
      recallRewrite: f.recallRewrite === 'on',
    };
  },
  fieldFor(path) {
    if (path === 'reviewEvery') return 'reviewEvery';
    if (path === 'contextBudgetTokens') return 'contextBudget';
    if (path === 'workspaceDir') return 'workspaceDir';
    if (path === 'recallRewrite') return 'recallRewrite';
    return null;
  },
};
