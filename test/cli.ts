import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CliRuntime } from '../src/cli/runtime.js';
import { afterAll, beforeAll } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';

const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const MAIN = join(process.cwd(), 'src', 'cli', 'main.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the quorum binary (src/cli/main.ts through tsx) with `env` over this process's environment.
 * A failing command is its exit code and output, not a throw. On a loaded machine one run takes seconds.
 */
export function runQuorum(args: string[], env: Record<string, string>): Promise<CliRun> {
  return promisify(execFile)(TSX, [MAIN, ...args], { env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: CliRun) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

/** What a command function takes, in-process: the test app's own context. */
export const cliRuntime = (t: TestApp): CliRuntime => ({ config: t.ctx.config, ctx: t.ctx });

/**
 * The file's app, and a CLI runtime over its context for calling command functions directly:
 * started before the file's tests, closed after them.
 */
export function cliTestApp(): { readonly t: TestApp; readonly rt: CliRuntime } {
  const state = {} as { t: TestApp; rt: CliRuntime };
  beforeAll(async () => {
    state.t = await startTestApp();
    state.rt = cliRuntime(state.t);
  });
  afterAll(async () => state.t?.close());
  return state;
}
