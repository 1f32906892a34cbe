/** The web app's committed API types (web/panel/src/api/schema.d.ts) match the panel's OpenAPI document. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { panelTypes, SCHEMA_FILE } from '../../../../scripts/panel-types.js';

describe('web/panel/src/api/schema.d.ts', () => {
  it('is what `npm run panel:types` generates now (run it after changing a panel route schema)', async () => {
    const fresh = await panelTypes();
    expect(fresh, 'GET /panel/api/openapi.json must answer 200').not.toBeNull();
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(fresh);
  }, 60_000);
});
