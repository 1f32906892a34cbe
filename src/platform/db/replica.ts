import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Database } from './database.js';

/** After the replica refused a connection, reads go to the primary this long before it is tried again. */
const RETRY_REPLICA_MS = 5_000;

/** What /metrics reads of the replica. */
export interface ReplicaProbe {
  /** Seconds the standby's replay is behind (0 when it has replayed all it received); null when it does not answer. */
  lagSeconds(): Promise<number | null>;
  /** Connections handed out from the primary because the replica was down. */
  fallbacks(): number;
}

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, release: (err?: Error | boolean) => void) => void;

/**
 * The replica's pool. A connection it cannot open (the standby is down or restarting) is taken
 * from the primary's pool instead, with one log line when reads leave the replica and one when they
 * return: heavy reads slow the primary for a while rather than fail. A pg.Pool subclass, because
 * Drizzle opens transactions only on what is `instanceof pg.Pool`, and pg-pool's own query() goes
 * through connect().
 */
class FallbackPool extends pg.Pool {
  private retryAt = 0;
  private away = false;
  fallbackCount = 0;

  constructor(
    config: pg.PoolConfig,
    private readonly primary: pg.Pool,
    private readonly log: (line: string) => void,
  ) {
    super(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    const client = this.pick();
    if (!callback) return client;
    client.then(
      (c) => callback(undefined, c, (err) => c.release(err)),
      (err: Error) => callback(err, undefined, () => undefined),
    );
  }

  /** A connection to the replica itself, never the primary (the lag probe). */
  replicaConnect(): Promise<pg.PoolClient> {
    return super.connect();
  }

  private async pick(): Promise<pg.PoolClient> {
    if (this.away && Date.now() < this.retryAt) return this.fromPrimary();
    try {
      const client = await this.replicaConnect();
      if (this.away) this.log('read replica answers again: heavy reads are back on it');
      this.away = false;
      return client;
    } catch (err) {
      if (!this.away) this.log(`read replica unreachable (${(err as Error).message}): heavy reads go to the primary, retried every ${RETRY_REPLICA_MS / 1000} s`);
      this.away = true;
      this.retryAt = Date.now() + RETRY_REPLICA_MS;
      return this.fromPrimary();
    }
  }

  private fromPrimary(): Promise<pg.PoolClient> {
    this.fallbackCount++;
    return this.primary.connect();
  }
}

/** The READ_DATABASE_URL pool, falling back to `primary`, and its probe for /metrics. */
export function openReplica(url: string, primary: pg.Pool, opts: { max?: number; log: (line: string) => void }): { database: Database; probe: ReplicaProbe } {
  // A standby that does not answer must not hold a request for long: the primary is there.
  const pool = new FallbackPool({ connectionString: url, max: opts.max ?? 10, application_name: 'quorum', connectionTimeoutMillis: 2_000 }, primary, opts.log);
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const probe: ReplicaProbe = {
    async lagSeconds() {
      const client = await pool.replicaConnect().catch(() => null);
      if (!client) return null;
      try {
        // Replayed all it received: no lag, however long ago the primary last wrote.
        const { rows } = await client.query<{ lag: number | null }>(
          `SELECT CASE WHEN NOT pg_is_in_recovery() OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                       ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8 END AS lag`,
        );
        return rows[0]?.lag ?? 0;
      } catch {
        return null;
      } finally {
        client.release();
      }
    },
    fallbacks: () => pool.fallbackCount,
  };
  return { database: { pool, db: drizzle(pool), close: () => pool.end() }, probe };
}
