/**
 * Generates the two OpenAPI documents from the route schemas, /v1 (scripts/served-openapi.ts) and
 * the panel's (scripts/panel-types.ts), and lints each with Redocly's recommended-strict rules
 * (every warning is an error). Used by CI: `npm run lint:openapi`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { panelOpenApi } from './panel-types.js';
import { servedOpenApi } from './served-openapi.js';

const dir = mkdtempSync(join(tmpdir(), 'quorum-openapi-lint-'));
const documents = { 'openapi.json': await servedOpenApi(), 'panel-openapi.json': await panelOpenApi() };
const files = Object.entries(documents).map(([name, document]) => {
  if (!document) throw new Error(`${name}: the document could not be generated`);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(document, null, 2));
  return file;
});
try {
  execFileSync(join(process.cwd(), 'node_modules', '.bin', 'redocly'), ['lint', '--config', 'redocly.yaml', ...files], {
    stdio: 'inherit',
    // No telemetry or update checks: CI reaches no network but the package registries.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
} catch {
  process.exit(1);
}
