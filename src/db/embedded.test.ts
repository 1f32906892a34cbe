import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgresError, startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.js';

const isRoot = process.getuid?.() === 0;
const removeAfterwards: string[] = [];
const servers: EmbeddedPostgres[] = [];

/** A fresh data dir whose parent has `mode` (0755: reachable by the service user when running as root). */
async function tempDataDir(mode = 0o755): Promise<string> {
  const parent = await fs.mkdtemp(path.join(os.tmpdir(), 'quorum-embedded-'));
  await fs.chmod(parent, mode);
  removeAfterwards.push(parent);
  return path.join(parent, 'data');
}

async function start(dataDir: string, logLines: string[] = []): Promise<EmbeddedPostgres> {
  const server = await startEmbeddedPostgres({ dataDir, fast: true, log: (line) => logLines.push(line) });
  servers.push(server);
  return server;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function accepts(url: string): Promise<boolean> {
  return query(url, 'SELECT 1').then(
    () => true,
    () => false,
  );
}

const initialising = (lines: string[]) => lines.filter((line) => line.includes('initialising a new cluster'));

afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of removeAfterwards) await fs.rm(dir, { recursive: true, force: true });
});

describe('startEmbeddedPostgres', () => {
  it('initialises a cluster on first start and answers queries on 127.0.0.1', async () => {
    const dataDir = await tempDataDir();
    const lines: string[] = [];
    const server = await start(dataDir, lines);

    expect(server.owned).toBe(true);
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    expect(initialising(lines)).toHaveLength(1);
    expect(await query(server.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    const [settings] = await query<Record<string, string>>(
      server.url,
      `SELECT current_setting('listen_addresses') AS listen, current_setting('unix_socket_directories') AS sockets,
              current_setting('max_connections') AS max, current_setting('fsync') AS fsync, upper('é') AS upper`,
    );
    expect(settings).toEqual({ listen: '127.0.0.1', sockets: '', max: '200', fsync: 'off', upper: 'É' });

    const pgData = path.join(dataDir, 'pg');
    await expect(fs.readFile(path.join(pgData, 'PG_VERSION'), 'utf8')).resolves.toMatch(/^\d+/);
    await expect(fs.readFile(path.join(dataDir, 'postgres.log'), 'utf8')).resolves.toContain('database system is ready');
    if (isRoot) {
      const stat = await fs.stat(pgData);
      expect(stat.mode & 0o777).toBe(0o700);
      expect(stat.uid).not.toBe(0);
    }
    await server.stop();
  });

  it('stops the server and reuses the cluster on the next start without initdb', async () => {
    const dataDir = await tempDataDir();
    const first = await start(dataDir);
    await query(first.url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('survives')");
    await first.stop();
    expect(await accepts(first.url)).toBe(false);
    await expect(fs.access(path.join(dataDir, 'pg', 'postmaster.pid'))).rejects.toThrow();

    const lines: string[] = [];
    const second = await start(dataDir, lines);
    expect(second.owned).toBe(true);
    expect(initialising(lines)).toEqual([]);
    expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 'survives' }]);
    await second.stop();
  });

  it('joins a server already running on the data dir without owning it', async () => {
    const dataDir = await tempDataDir();
    const owner = await start(dataDir);
    const guest = await start(dataDir);

    expect(guest).toMatchObject({ owned: false, port: owner.port, url: owner.url });
    expect(await accepts(guest.url)).toBe(true);
    await guest.stop();
    expect(await accepts(owner.url)).toBe(true);

    await owner.stop();
    expect(await accepts(owner.url)).toBe(false);
  });

  it('runs initdb once when two starts race on a fresh data dir', async () => {
    const dataDir = await tempDataDir();
    const lines: string[] = [];
    const both = await Promise.all([start(dataDir, lines), start(dataDir, lines)]);

    expect(both.map((s) => s.owned).sort()).toEqual([false, true]);
    expect(both[0].port).toBe(both[1].port);
    expect(initialising(lines)).toHaveLength(1);
    for (const server of both) await server.stop();
  });

  it('does not join through a stale postmaster.pid', async () => {
    const other = await start(await tempDataDir());
    const dataDir = await tempDataDir();
    await (await start(dataDir)).stop();
    const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
    const fakePidFile = (pid: number) => `${pid}\n${path.join(dataDir, 'pg')}\n0\n${other.port}\n\n127.0.0.1\n0 0\nready\n`;

    // A pid that has exited: Postgres discards the file itself.
    const deadPid = spawnSync('true').pid;
    await fs.writeFile(pidFile, fakePidFile(deadPid));
    const afterDeadPid = await start(dataDir);
    expect(afterDeadPid.owned).toBe(true);
    expect(afterDeadPid.port).not.toBe(other.port);
    await afterDeadPid.stop();

    // A pid reused by an unrelated live process (here: this test process).
    await fs.writeFile(pidFile, fakePidFile(process.pid));
    const afterReusedPid = await start(dataDir);
    expect(afterReusedPid.owned).toBe(true);
    expect(afterReusedPid.port).not.toBe(other.port);
    await afterReusedPid.stop();
    await other.stop();
  });

  it('rejects with the reason from the server log when the server cannot start', async () => {
    const dataDir = await tempDataDir();
    await (await start(dataDir)).stop();
    await fs.appendFile(path.join(dataDir, 'pg', 'postgresql.conf'), '\nthis is = not valid postgresql.conf\n');

    const failure = await start(dataDir).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(EmbeddedPostgresError);
    expect((failure as Error).message).toMatch(/syntax error in file .*postgresql\.conf/);
    expect((failure as Error).message).toContain('contains errors');
  });

  // Only root switches to the service user, which cannot traverse a 0700 parent owned by root; as any
  // other user the data dir stays where it is asked to be, which the tests above already cover.
  it.runIf(isRoot)('relocates cluster and binaries when the service user cannot reach the data dir', async () => {
    const dataDir = await tempDataDir(0o700);
    const lines: string[] = [];
    const first = await start(dataDir, lines);

    const location = (await fs.readFile(path.join(dataDir, 'pg-location'), 'utf8')).trim();
    removeAfterwards.push(location);
    expect(location).toMatch(/^\/var\/lib\/quorum\/data-[0-9a-f]{16}$/);
    expect(lines.some((line) => line.includes(location) && line.includes('pg-location'))).toBe(true);
    expect(initialising(lines)).toHaveLength(1);
    const [{ dir }] = await query<{ dir: string }>(first.url, 'SELECT current_setting(\'data_directory\') AS dir');
    expect(dir).toBe(location);
    const binDirs = (await fs.readdir('/var/lib/quorum')).filter((name) => name.startsWith('pg-'));
    expect(binDirs.length).toBeGreaterThan(0);
    await query(first.url, 'CREATE TABLE kept (v int)');
    await first.stop();

    const restartLines: string[] = [];
    const second = await start(dataDir, restartLines);
    expect(initialising(restartLines)).toEqual([]);
    expect(await query(second.url, 'SELECT count(*)::int AS n FROM kept')).toEqual([{ n: 0 }]);
    await second.stop();
  });
});
