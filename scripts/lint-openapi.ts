/**
 * Generates the OpenAPI document from the route schemas (scripts/served-openapi.ts) and lints it
 * with Redocly's recommended-strict rules (every warning is an error). Used by CI: `npm run lint:openapi`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servedOpenApi } from './served-openapi.js';

const file = join(mkdtempSync(join(tmpdir(), 'quorum-openapi-lint-')), 'openapi.json');
writeFileSync(file, JSON.stringify(await servedOpenApi(), null, 2));
try {
  execFileSync(join(process.cwd(), 'node_modules', '.bin', 'redocly'), ['lint', '--config', 'redocly.yaml', file], {
    stdio: 'inherit',
    // No telemetry or update checks: CI reaches no network but the package registries.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
} catch {
  process.exit(1);
}
