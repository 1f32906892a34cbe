import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuorum } from '../../../test/cli.js';
import { cloneDatabase } from '../../../test/harness.js';

const FORM = join(process.cwd(), 'src', 'features', 'forms', 'examples', 'all-question-types.json');
const dir = mkdtempSync(join(tmpdir(), 'quorum-invite-cli-'));

let database: Awaited<ReturnType<typeof cloneDatabase>>;

const quorum = (args: string[]) => runQuorum(args, { DATABASE_URL: database.url, QUORUM_DATA_DIR: dir });

function csv(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

beforeAll(async () => {
  database = await cloneDatabase();
});
afterAll(async () => database?.drop());

describe('quorum invite import', { timeout: 180_000 }, () => {
  it('imports a CSV as one batch with a progress bar and a summary of created, duplicates and invalid rows by line', async () => {
    expect((await quorum(['company', 'create', '--name', 'Import School', '--slug', 'import-school'])).code).toBe(0);
    expect((await quorum(['form', 'import', '--company', 'import-school', FORM])).code).toBe(0);
    const file = csv('contacts.csv', 'name,email\nAna,ana@school.edu\nBad,nope\nBo,BO@school.edu\nAna again,Ana@School.edu\n');

    const human = await quorum(['invite', 'import', '--company', 'import-school', '--form', 'course-experience', file]);
    expect(human.code).toBe(2); // some rows invalid, the others imported
    // Not a terminal: each progress line is a line of its own, the last one whole.
    expect(human.stderr).toMatch(/^(\[[#-]+\] +\d+% \d+ rows\n)+$/);
    expect(human.stderr).toMatch(/\[#+\] 100% 4 rows\n$/);
    expect(human.stdout).toMatch(/^batch [0-9a-f-]{36}: 4 rows, 2 created, 1 duplicates, 1 invalid$/m);
    // Invalid and duplicate rows in file order.
    const listed = human.stdout.split('\n').filter((line) => line.startsWith('  line '));
    expect(listed).toEqual(['  line 3: email: This is not an e-mail address.', '  line 5: duplicate, ana@school.edu already has an invite on this form (left as it is)']);

    const again = await quorum(['--json', 'invite', 'import', '--company', 'import-school', '--form', 'course-experience', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe('');
    const summary = JSON.parse(again.stdout);
    expect(summary).toMatchObject({ batchId: expect.any(String), rows: 4, created: 0, duplicates: 3, invalid: 1 });
    expect(summary.duplicateRows.map((r: { line: number }) => r.line)).toEqual([2, 4, 5]);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ email: string; batch_id: string }>(`SELECT email, batch_id FROM invites ORDER BY email`);
      const firstBatch = /^batch ([0-9a-f-]{36})/m.exec(human.stdout)![1];
      // The follow-up names the form and the batch: a call to copy, no placeholder.
      const formId = (await client.query<{ id: string }>(`SELECT id FROM forms`)).rows[0].id;
      expect(human.stdout).toContain(`send them: POST /v1/forms/${formId}/invites/send {"channel":"email","batchId":"${firstBatch}"}`);
      expect(rows).toEqual([
        { email: 'ana@school.edu', batch_id: firstBatch },
        { email: 'bo@school.edu', batch_id: firstBatch },
      ]);
    } finally {
      await client.end();
    }
  });

  it('exits 3 when every row is invalid, and shows the bar moving through a larger file', async () => {
    await quorum(['company', 'create', '--name', 'Bulk School', '--slug', 'bulk-school']);
    await quorum(['form', 'import', '--company', 'bulk-school', FORM]);
    const invalid = await quorum(['invite', 'import', '--company', 'bulk-school', '--form', 'course-experience', csv('invalid.csv', 'name,email\nA,nope\nB,also-not\n')]);
    expect(invalid.code).toBe(3);
    expect(invalid.stdout).toMatch(/: 2 rows, 0 created, 0 duplicates, 2 invalid$/m);
    expect(invalid.stdout).not.toContain('send them');

    const rows = Array.from({ length: 3000 }, (_, i) => `Person ${i},person${i}@bulk.edu`);
    const bulk = await quorum(['invite', 'import', '--company', 'bulk-school', '--form', 'course-experience', csv('bulk.csv', `name,email\n${rows.join('\n')}\n`)]);
    expect(bulk.code).toBe(0);
    const percents = bulk.stderr.trimEnd().split('\n').map((line) => Number(/(\d+)% /.exec(line)![1]));
    expect(percents.some((p) => p > 0 && p < 100), bulk.stderr).toBe(true);
    expect(percents).toEqual(percents.toSorted((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
  });

  it('fails with a clear code for an unknown form, a missing file and unknown columns', async () => {
    await quorum(['company', 'create', '--name', 'Other School', '--slug', 'other-school']);
    const file = csv('ok.csv', 'email\na@school.edu\n');
    const noForm = await quorum(['--json', 'invite', 'import', '--company', 'other-school', '--form', 'course-experience', file]);
    expect(noForm.code).toBe(1);
    expect(JSON.parse(noForm.stdout).error.code).toBe('NOT_FOUND');
    expect(noForm.stderr).toBe(''); // --json: the error object only, on stdout

    await quorum(['form', 'import', '--company', 'other-school', FORM]);
    const missing = await quorum(['--json', 'invite', 'import', '--company', 'other-school', '--form', 'course-experience', join(dir, 'absent.csv')]);
    expect(JSON.parse(missing.stdout).error.code).toBe('INVALID_INPUT');
    const columns = await quorum(['--json', 'invite', 'import', '--company', 'other-school', '--form', 'course-experience', csv('bad.csv', 'email,colour\na@b.edu,red\n')]);
    expect(columns.code).toBe(1);
    expect(JSON.parse(columns.stdout).error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ path: 'header.1', code: 'unknown_field' }] } });
  });
});
