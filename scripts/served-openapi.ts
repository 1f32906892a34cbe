/**
 * The /v1 OpenAPI document as the service serves it, generated from the route schemas without a
 * database (the pool is never queried), with a fixed server URL so what is derived from it does
 * not depend on the machine's settings. Used by `npm run lint:openapi` and `npm run client:types`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/platform/app/build-app.js';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';

export async function servedOpenApi(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-openapi-'));
  const config = {
    ...loadConfig({ QUORUM_DATA_DIR: dir, SECRET_KEY: 'x'.repeat(32), LOG_LEVEL: 'silent' }),
    databaseUrl: 'postgres://unused@127.0.0.1:1/unused',
    publicApiUrl: 'https://api.quorum.example/v1',
  };
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await ctx.close();
  }
}
