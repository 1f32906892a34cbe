import { eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../../platform/db/database.js';
import { apiKeys, companies } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { hashSecret, secretMatches } from '../../lib/secret-token.js';
import { parseToken } from './token.js';
import { listenChannel, type ChannelListener, type ListenLog } from '../../platform/db/listen-channel.js';

/** Announced by the api_keys triggers (migration 0010) in the transaction that changes a key. */
export const KEY_CHANGED_CHANNEL = 'quorum_api_key_changed';
/** While the change channel is heard, a verified key is re-read only this rarely (a safety net). */
const LISTENING_CACHE_MS = 300_000;

export interface AuthenticatedKey {
  id: string;
  name: string;
  scopes: string[];
  rateLimitPerMin: number;
  company: { id: string; name: string; slug: string };
}

interface CachedKey {
  key: AuthenticatedKey;
  secretHash: Buffer;
  expiresAt: Date | null;
  revokedAt: Date | null;
  fetchedAtMs: number;
}

/** A key id that matched nothing is remembered too, so probing one id costs one lookup per period. */
interface CachedMiss {
  missing: true;
  fetchedAtMs: number;
}

const LAST_USED_EVERY_MS = 60_000;
/** Compared against when the key id is unknown, so an unknown id costs what a wrong secret costs. */
const NO_SUCH_SECRET = hashSecret('no key has this secret');
/** Bounds the cache against floods of random key ids: the oldest entry goes first. */
const MAX_CACHED_KEYS = 10_000;

/**
 * Verifies bearer tokens with at most one indexed lookup per key per cache period. Every change
 * that can end a key's validity is NOTIFYed by the database in the changing transaction; each
 * instance LISTENs and drops that key at once, so revocation and expiry changes take effect
 * everywhere immediately while the hot path stays a map lookup. Without the listener (not
 * started, or reconnecting) a cached record is re-read after `cacheMs`.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CachedKey | CachedMiss>();
  private readonly lastUsedWrites = new Map<string, number>();
  private listener: ChannelListener | null = null;
  /** Bumped by every change notice and reconnection: a lookup that overlapped one is not cached. */
  private epoch = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly cacheMs = 5_000,
  ) {}

  /** Starts listening for key changes on a dedicated connection. */
  async listen(connection: pg.ClientConfig, log: ListenLog): Promise<void> {
    const forget = (keyId?: string) => {
      this.epoch += 1;
      if (keyId === undefined) this.cache.clear();
      else this.cache.delete(keyId);
    };
    this.listener = await listenChannel(connection, KEY_CHANGED_CHANNEL, { onNotify: forget, onConnect: () => forget(), onDisconnect: () => forget() }, log);
  }

  async close(): Promise<void> {
    await this.listener?.close();
  }

  /** True when the token's key id can be answered from the cache (known or known missing), without the database. */
  answersFromCache(token: string): boolean {
    const parsed = parseToken(token);
    if (!parsed) return true;
    const cached = this.cache.get(parsed.keyId);
    return cached !== undefined && this.clock.now().getTime() - cached.fetchedAtMs < this.freshFor(cached);
  }

  private freshFor(entry: CachedKey | CachedMiss): number {
    // A miss is not announced when the key is created later: it keeps the short period.
    return this.listener?.connected && !('missing' in entry) ? LISTENING_CACHE_MS : this.cacheMs;
  }

  /** The key for a well-formed, known, unrevoked, unexpired token; null for anything else. */
  async authenticate(token: string): Promise<AuthenticatedKey | null> {
    const parsed = parseToken(token);
    if (!parsed) return null;
    const now = this.clock.now();
    const record = await this.load(parsed.keyId, now.getTime());
    const matches = secretMatches(parsed.secret, record?.secretHash ?? NO_SUCH_SECRET);
    if (!record || !matches) return null;
    if (record.revokedAt && record.revokedAt <= now) return null;
    if (record.expiresAt && record.expiresAt <= now) return null;
    this.touchLastUsed(record.key.id, now);
    return record.key;
  }

  private async load(keyId: string, nowMs: number): Promise<CachedKey | null> {
    const cached = this.cache.get(keyId);
    if (cached && nowMs - cached.fetchedAtMs < this.freshFor(cached)) return 'missing' in cached ? null : cached;
    const epoch = this.epoch;
    const [row] = await this.db
      .select({ key: apiKeys, company: { id: companies.id, name: companies.name, slug: companies.slug } })
      .from(apiKeys)
      .innerJoin(companies, eq(companies.id, apiKeys.companyId))
      .where(eq(apiKeys.keyId, keyId))
      .limit(1);
    if (!row) {
      this.remember(keyId, { missing: true, fetchedAtMs: nowMs }, epoch);
      return null;
    }
    const record: CachedKey = {
      key: { id: row.key.id, name: row.key.name, scopes: row.key.scopes, rateLimitPerMin: row.key.rateLimitPerMin, company: row.company },
      secretHash: row.key.secretHash,
      expiresAt: row.key.expiresAt,
      revokedAt: row.key.revokedAt,
      fetchedAtMs: nowMs,
    };
    this.remember(keyId, record, epoch);
    return record;
  }

  private remember(keyId: string, entry: CachedKey | CachedMiss, epoch: number): void {
    this.cache.delete(keyId);
    if (epoch !== this.epoch) return;
    this.cache.set(keyId, entry);
    if (this.cache.size > MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value!);
  }

  /** lastUsedAt is written at most once a minute per key and never awaited on the request path. */
  private touchLastUsed(id: string, now: Date): void {
    const last = this.lastUsedWrites.get(id) ?? 0;
    if (now.getTime() - last < LAST_USED_EVERY_MS) return;
    this.lastUsedWrites.set(id, now.getTime());
    this.db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(sql`${apiKeys.id} = ${id} AND (${apiKeys.lastUsedAt} IS NULL OR ${apiKeys.lastUsedAt} < ${now.toISOString()}::timestamptz - interval '1 minute')`)
      .catch(() => undefined);
  }
}
