import { afterAll, beforeAll } from 'vitest';
import type { CliRuntime } from '../src/cli/runtime.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * The file's app, and a CLI runtime over its context for calling command functions directly (they
 * only use the runtime's providers): started before the file's tests, closed after them.
 */
export function cliTestApp(): { readonly t: TestApp; readonly rt: CliRuntime } {
  const state = {} as { t: TestApp; rt: CliRuntime };
  beforeAll(async () => {
    state.t = await startTestApp();
    state.rt = { ctx: state.t.ctx } as unknown as CliRuntime;
  });
  afterAll(async () => state.t?.close());
  return state;
}
