/** The client's committed API types match the /v1 OpenAPI document (CI regenerates and compares them). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_SCHEMA_FILE, clientTypes } from '../../../scripts/client-types.js';

describe('packages/client/src/schema.d.ts', () => {
  it('is what `npm run client:types` generates now (run it after changing a /v1 route schema)', async () => {
    expect(readFileSync(CLIENT_SCHEMA_FILE, 'utf8')).toBe(await clientTypes());
  }, 60_000);
});
