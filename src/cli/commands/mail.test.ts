import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuorum } from '../../../test/cli.js';
import { cloneDatabase } from '../../../test/harness.js';

let database: Awaited<ReturnType<typeof cloneDatabase>>;

beforeAll(async () => {
  database = await cloneDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO dev_mail (id, message_id, sender, recipient, subject, text_body, html_body, created_at)
       VALUES ('0190f0a0-0000-7000-8000-000000000001', '<m1@localhost>', 'Quorum <no-reply@localhost>', 'ana@school.edu', 'Your survey', 'Hello', '<p>Hello</p>', '2026-03-01T09:00:00Z')`,
    );
  } finally {
    await client.end();
  }
});
afterAll(async () => database?.drop());

describe('quorum mail list', { timeout: 60_000 }, () => {
  it('prints a header row over aligned columns', async () => {
    const run = await runQuorum(['mail', 'list'], { DATABASE_URL: database.url, QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-mail-cli-')) });
    expect(run.code).toBe(0);
    const [header, row] = run.stdout.trimEnd().split('\n');
    expect(header.split(/\s+/)).toEqual(['id', 'createdAt', 'to', 'subject']);
    expect(row).toMatch(/^0190f0a0-0000-7000-8000-000000000001 +\S+ +ana@school\.edu +Your survey$/);
  });
});
