import { mkdtempSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../src/platform/db/migrate.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/platform/db/embedded/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Starts one Postgres for the whole run (embedded, or TEST_DATABASE_URL's server), migrates a
 * template database once; every test file then clones it (CREATE DATABASE ... TEMPLATE), so
 * files run in parallel, isolated, on a real Postgres.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedPostgres | null = null;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'quorum-test-'));
    chmodSync(dir, 0o755);
    embedded = await startEmbeddedPostgres({ dataDir: dir, fast: true });
    adminUrl = embedded.url;
  }
  const template = `quorum_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const pool = new pg.Pool({ connectionString: withDatabase(adminUrl, template), max: 2 });
  try {
    await migrate(pool);
  } finally {
    await pool.end();
  }
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);

  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    await embedded?.stop();
  };
}
