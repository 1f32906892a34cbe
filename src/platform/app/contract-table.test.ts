import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';

/**
 * docs/contract.md lists every operation with its scope, and CONTRIBUTING sends newcomers there
 * first: the table must say what the served document says, no more and no less.
 */
const CONTRACT = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'contract.md'), 'utf8');

/** "METHOD /path" → scope as the table writes it ("any valid key", "none" or a scope name). */
function tableRows(): Map<string, string> {
  const section = CONTRACT.slice(CONTRACT.indexOf('## What exists today'), CONTRACT.indexOf('\n## ', CONTRACT.indexOf('## What exists today') + 1));
  const rows = new Map<string, string>();
  for (const match of section.matchAll(/^\|[^|]*\| `([A-Z]+ \/[^`]*)` \| `?([^`|]+?)`? \|$/gm)) rows.set(match[1], match[2]);
  return rows;
}

let t: TestApp;
let served: Map<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  const document = (await t.get(null, '/v1/openapi.json')).json();
  served = new Map();
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { security: Record<string, string[]>[] }>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const bearer = operation.security.find((requirement) => 'bearerAuth' in requirement)?.bearerAuth;
      served.set(`${method.toUpperCase()} ${path}`, bearer ? (bearer[0] ?? 'any valid key') : 'none');
    }
  }
});
afterAll(async () => t?.close());

it("lists every served operation with its scope in docs/contract.md's table, and nothing else", () => {
  expect(tableRows().size).toBeGreaterThan(0);
  expect(Object.fromEntries(tableRows())).toEqual(Object.fromEntries(served));
});
