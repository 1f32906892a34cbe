import { test as base } from 'vitest';
import type { ManualClock } from '../src/lib/clock.js';
import { startTestApp, TEST_START, type TestApp } from './harness.js';

type Tenant = Awaited<ReturnType<TestApp['tenant']>>;

/**
 * Vitest fixtures over the harness: `app` is the file's app (one cloned database per file),
 * `clock` is the test's own clock (the app's clock set back to TEST_START before the test, so
 * no test sees where another left it), and `tenant` a fresh company with an all-scopes key for
 * tests that change rows others could count.
 */
export const test = base.extend<{ $test: { clock: ManualClock; tenant: Tenant }; $file: { app: TestApp } }>({
  app: [
    async ({}, use) => {
      const app = await startTestApp();
      await use(app);
      await app.close();
    },
    { scope: 'file' },
  ],
  clock: async ({ app }, use) => {
    app.clock.set(TEST_START);
    await use(app.clock);
  },
  tenant: async ({ app }, use) => {
    await use(await app.tenant());
  },
});
