/**
 * Generates the OpenAPI document from the route schemas (no database needed: the pool is never
 * queried) and lints it with Redocly's recommended-strict rules (every warning is an error). Used by CI: `npm run lint:openapi`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app/build-app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';

const dir = mkdtempSync(join(tmpdir(), 'quorum-openapi-'));
const config = {
  ...loadConfig({ QUORUM_DATA_DIR: dir, SECRET_KEY: 'x'.repeat(32), LOG_LEVEL: 'silent' }),
  databaseUrl: 'postgres://unused@127.0.0.1:1/unused',
  publicApiUrl: 'https://api.quorum.example/v1',
};
const ctx = await createContext(config);
const app = await buildApp(ctx);
await app.ready();
const file = join(dir, 'openapi.json');
writeFileSync(file, JSON.stringify(app.swagger(), null, 2));
await app.close();
await ctx.close();
try {
  execFileSync(join(process.cwd(), 'node_modules', '.bin', 'redocly'), ['lint', '--config', 'redocly.yaml', file], {
    stdio: 'inherit',
    // No telemetry or update checks: CI reaches no network but the package registries.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
} catch {
  process.exit(1);
}
