import { settingFields } from '../../../../shared/settings';
import type { SectionFormSpec } from '../section-form';
import { wholeNumberProblem } from '../validate';

export interface MemoryForm extends Record<string, string> {
  reviewEvery: string;
  contextBudget: string;
  /** 'on' or 'off' (the form holds text): recall may ask the chat model for search queries. */
  recallRewrite: string;
}

export const memoryFormSpec: SectionFormSpec<MemoryForm> = {
  label: 'Memory and context',
  savedMessage: 'Memory and context settings saved.',
  read: (s) => ({
    reviewEvery: String(s.reviewEvery),
    contextBudget: String(s.contextBudgetTokens),
    recallRewrite: s.recallRewrite ? 'on' : 'off',
  }),
  validate(f) {
    return {
      reviewEvery: wholeNumberProblem(f.reviewEvery, settingFields.reviewEvery),
      contextBudget: wholeNumberProblem(f.contextBudget, settingFields.contextBudgetTokens),
    };
  },
  toPatch(f) {
    return {
      reviewEvery: Number(f.reviewEvery),
      contextBudgetTokens: Number(f.contextBudget),
      recallRewrite: f.recallRewrite === 'on',
    };
  },
  fieldFor(path) {
    if (path === 'reviewEvery') return 'reviewEvery';
    if (path === 'contextBudgetTokens') return 'contextBudget';
    if (path === 'recallRewrite') return 'recallRewrite';
    return null;
  },
};
