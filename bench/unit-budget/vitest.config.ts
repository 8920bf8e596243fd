// The project's vitest config plus the budget's recorder (setup.ts); used only by run.mjs.
import { mergeConfig } from 'vitest/config';
import base from '../../vitest.config';

export default mergeConfig(base, { test: { setupFiles: ['bench/unit-budget/setup.ts'] } });
