import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';

/** A small client written against the generated types: it compiles only if the document declares all it uses. */
const CLIENT = `
import type { components, paths, webhooks } from './api.js';

type MeOk = paths['/me']['get']['responses'][200];
declare const me: MeOk['content']['application/json'];
export const slug: string = me.data.company.slug;
export const okHeaders: MeOk['headers'] = { 'x-request-id': 'r', 'ratelimit-limit': 60, 'ratelimit-remaining': 59, 'ratelimit-reset': 60 };

type Limited = paths['/forms']['get']['responses'][429];
export const retryAfter: NonNullable<Limited['headers']['retry-after']> = 30;

type Details = paths['/events']['get']['responses'][400]['content']['application/json']['error']['details'];
const isValidation = (d: Details): d is components['schemas']['ValidationDetails'] => d !== null && 'fields' in d;
declare const refused: paths['/events']['get']['responses'][400]['content']['application/json'];
export const firstPath: string | undefined = isValidation(refused.error.details) ? refused.error.details.fields[0]?.path : undefined;

export const quota: components['schemas']['QuotaDetails'] = { limit: 10000, used: 10000, reserved: 0, requested: 5, period: '2026-03' };
export const anonymity: components['schemas']['AnonymityDetails'] = { floor: 5, authors: 3 };

type ScanQuery = NonNullable<paths['/forms/{id}/responses']['get']['parameters']['query']>;
export const dims: ScanQuery['dims'] = { 'dim.course': 'MATH101' };
export const upload: NonNullable<paths['/r/v1/invites/{token}/files']['post']['requestBody']>['content']['multipart/form-data'] = { file: 'bytes' };
type RevokeTooLarge = paths['/invites/{id}/revoke']['post']['responses'][413]['content']['application/json'];
export const tooLarge: RevokeTooLarge['success'] = false;

type Created = NonNullable<webhooks['response.created']['post']>['requestBody']['content']['application/json'];
declare const created: Created;
export const responseId: string = created.data.responseId;
export const createdType: 'response.created' = created.type;
`;

/** Misuses that must not compile, so the check above cannot pass on types that are all `any`. */
const MISUSES = [
  `import type { paths } from './api.js';\nexport const h: NonNullable<paths['/me']['get']['responses'][200]['headers']['ratelimit-limit']> = 'sixty';`,
  `import type { components } from './api.js';\ndeclare const d: components['schemas']['ValidationDetails'];\nexport const n: number = d.fields[0].path;`,
  `import type { paths } from './api.js';\ndeclare const me: paths['/me']['get']['responses'][200]['content']['application/json'];\nexport const x: string = me.data.company.nope;`,
  `import type { webhooks } from './api.js';\ndeclare const e: NonNullable<webhooks['invite.failed']['post']>['requestBody']['content']['application/json'];\nexport const n: number = e.data.inviteId;`,
];

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await startTestApp();
  dir = mkdtempSync(join(tmpdir(), 'quorum-client-'));
  const doc = (await t.get(null, '/v1/openapi.json')).json();
  writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(doc)));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

/** Compiles the sources in one program (loading the standard library once); messages by source. */
function diagnostics(sources: string[]): string[][] {
  const files = sources.map((source, i) => {
    const file = join(dir, `client-${i}.ts`);
    writeFileSync(file, source);
    return file;
  });
  const program = ts.createProgram(files, { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, types: [] });
  return files.map((file) => ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')));
}

describe('a client generated from the served document (openapi-typescript)', () => {
  it('knows the response headers, the error details shapes and the /me answer, and refuses misuses', { timeout: 90_000 }, () => {
    const [client, ...misuses] = diagnostics([CLIENT, ...MISUSES]);
    expect(client).toEqual([]);
    for (const [i, errors] of misuses.entries()) expect(errors.length, MISUSES[i]).toBeGreaterThan(0);
  });
});
