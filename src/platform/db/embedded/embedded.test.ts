import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedPostgresError, NoClusterError, startEmbeddedPostgres, type EmbeddedOptions, type EmbeddedPostgres } from './index.js';

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

async function start(dataDir: string, logLines: string[] = [], more: Partial<EmbeddedOptions> = {}): Promise<EmbeddedPostgres> {
  const server = await startEmbeddedPostgres({ dataDir, fast: true, log: (line) => logLines.push(line), ...more });
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
    const password = (await fs.readFile(path.join(dataDir, 'pg-password'), 'utf8')).trim();
    expect(password).toMatch(/^[\w-]{43}$/);
    expect(server.url).toBe(`postgres://postgres:${password}@127.0.0.1:${server.port}/postgres`);
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

  it('refuses connections without the generated password; password file and log are 0600', async () => {
    const dataDir = await tempDataDir();
    const server = await start(dataDir);
    const bare = `postgres://postgres@127.0.0.1:${server.port}/postgres`;
    const wrong = `postgres://postgres:guess@127.0.0.1:${server.port}/postgres`;
    for (const url of [bare, wrong]) await expect(query(url, 'SELECT 1')).rejects.toThrow(/password/);
    expect(await accepts(server.url)).toBe(true);
    expect((await fs.stat(path.join(dataDir, 'pg-password'))).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.join(dataDir, 'postgres.log'))).mode & 0o777).toBe(0o600);
    const [{ method }] = await query<{ method: string }>(server.url, "SELECT rolpassword LIKE 'SCRAM-SHA-256$%' AS method FROM pg_authid WHERE rolname = 'postgres'");
    expect(method).toBe(true);
    await server.stop();
  });

  it('upgrades a cluster made when local connections were trusted, keeping its data', async () => {
    const dataDir = await tempDataDir();
    const first = await start(dataDir);
    await query(first.url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('survives')");
    await first.stop();
    // What earlier versions left behind: a trusting pg_hba.conf, no password file, a world-readable log.
    await fs.writeFile(path.join(dataDir, 'pg', 'pg_hba.conf'), 'host all all 127.0.0.1/32 trust\n');
    await fs.rm(path.join(dataDir, 'pg-password'));
    await fs.chmod(path.join(dataDir, 'postgres.log'), 0o644);

    const lines: string[] = [];
    const second = await start(dataDir, lines);
    expect(lines.some((line) => line.includes('switching') && line.includes('password'))).toBe(true);
    expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 'survives' }]);
    await expect(query(`postgres://postgres@127.0.0.1:${second.port}/postgres`, 'SELECT 1')).rejects.toThrow(/password/);
    expect((await fs.stat(path.join(dataDir, 'postgres.log'))).mode & 0o777).toBe(0o600);
    await second.stop();
  });

  it('does not create a cluster when asked not to, and says where it looked', async () => {
    const dataDir = await tempDataDir();
    const failure = await start(dataDir, [], { create: false }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(NoClusterError);
    expect((failure as Error).message).toContain(path.join(dataDir, 'pg'));
    await expect(fs.access(path.join(dataDir, 'pg'))).rejects.toThrow();
  });

  it('takes over the server of a process that was SIGKILLed, and stops it', async () => {
    const dataDir = await tempDataDir();
    const script = path.join(path.dirname(dataDir), 'owner.mts');
    const entry = path.join(process.cwd(), 'src', 'platform', 'db', 'embedded', 'index.ts');
    await fs.writeFile(
      script,
      `import { startEmbeddedPostgres } from ${JSON.stringify(entry)};\n` +
        `const s = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, fast: true });\n` +
        'console.log(s.port);\nsetInterval(() => undefined, 1000);\n',
    );
    const owner = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(owner.stdout!, 'data')) as [Buffer];
    const orphanPort = Number(line.toString().trim());
    owner.kill('SIGKILL');
    await once(owner, 'exit');
    expect(await accepts(`postgres://postgres:${(await fs.readFile(path.join(dataDir, 'pg-password'), 'utf8')).trim()}@127.0.0.1:${orphanPort}/postgres`)).toBe(true);

    const lines: string[] = [];
    const heir = await start(dataDir, lines);
    expect(heir).toMatchObject({ owned: true, port: orphanPort });
    expect(lines.some((l) => l.includes('taking over'))).toBe(true);
    await heir.stop();
    expect(await accepts(heir.url)).toBe(false);
    await expect(fs.access(path.join(dataDir, 'pg', 'postmaster.pid'))).rejects.toThrow();
  });

  it('reports a server that dies under its owner', async () => {
    const dataDir = await tempDataDir();
    let reason: string | null = null;
    const died = new Promise<void>((resolve) => {
      void start(dataDir, [], {
        onUnexpectedExit: (why) => {
          reason = why;
          resolve();
        },
      }).then(async () => {
        const pid = Number((await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
        process.kill(pid, 'SIGKILL');
      });
    });
    await died;
    expect(reason).toMatch(/PostgreSQL exited \(signal SIGKILL\)/);
  });

  // Only root switches to the service user, which cannot traverse a 0700 parent owned by root; as any
  // other user the data dir stays where it is asked to be, which the tests above already cover.
  it.runIf(isRoot)('relocates the cluster when the service user cannot reach the data dir', async () => {
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
    await query(first.url, 'CREATE TABLE kept (v int)');
    await first.stop();

    const restartLines: string[] = [];
    const second = await start(dataDir, restartLines);
    expect(initialising(restartLines)).toEqual([]);
    expect(await query(second.url, 'SELECT count(*)::int AS n FROM kept')).toEqual([{ n: 0 }]);
    await second.stop();
  });
});
