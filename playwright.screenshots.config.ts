import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// `npm run screenshots`: the accessibility tour (e2e/tour.ts) photographed in every theme and
// width, into e2e-artifacts/tour/ (gitignored). Not part of `npm test`.
export default defineConfig({
  ...base,
  testMatch: '*.shots.ts',
  timeout: 300_000,
});
