import { defineConfig } from 'vitest/config';

/**
 * Two tiers. `npm test` runs the default one; `npm run test:journeys` runs the journeys: tests that
 * drive a real browser, start the service or the CLI as processes, kill workers, or seed the whole
 * demo. `.ci/run` runs both; `npm run test:all` too.
 */
export const JOURNEYS = [
  '**/*.browser.test.ts',
  'src/cli/**/*.test.ts',
  'src/platform/db/embedded/embedded.test.ts',
  'src/features/*/crash.test.ts',
  'src/demo/**/*.test.ts',
  'src/features/*/seed-demo*.test.ts',
  'src/features/statistics/demo.test.ts',
  'test/dev-mode.test.ts',
  'test/topology.test.ts',
  'test/readme-tour.test.ts',
  'test/soak.test.ts',
];

const ALL = ['src/**/*.test.ts', 'test/**/*.test.ts', 'packages/client/src/**/*.test.ts', 'web/panel/src/**/*.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/clock-per-test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'default', include: ALL, exclude: JOURNEYS } },
      { extends: true, test: { name: 'journeys', include: JOURNEYS } },
    ],
  },
});
