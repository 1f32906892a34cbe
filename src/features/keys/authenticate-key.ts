import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { apiKeys, companies } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { parseToken, secretMatches } from './token.js';

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
/** Bounds the cache against floods of random key ids: the oldest entry goes first. */
const MAX_CACHED_KEYS = 10_000;

/**
 * Verifies bearer tokens with at most one indexed lookup per key per cache period. A cached
 * record is re-read after `cacheMs`, so a revocation made by another process takes effect
 * within that period on every instance.
 */
export class KeyAuthenticator {
  private readonly cache = new Map<string, CachedKey | CachedMiss>();
  private readonly lastUsedWrites = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly cacheMs = 5_000,
  ) {}

  /** The key for a well-formed, known, unrevoked, unexpired token; null for anything else. */
  async authenticate(token: string): Promise<AuthenticatedKey | null> {
    const parsed = parseToken(token);
    if (!parsed) return null;
    const now = this.clock.now();
    const record = await this.load(parsed.keyId, now.getTime());
    if (!record || !secretMatches(parsed.secret, record.secretHash)) return null;
    if (record.revokedAt && record.revokedAt <= now) return null;
    if (record.expiresAt && record.expiresAt <= now) return null;
    this.touchLastUsed(record.key.id, now);
    return record.key;
  }

  private async load(keyId: string, nowMs: number): Promise<CachedKey | null> {
    const cached = this.cache.get(keyId);
    if (cached && nowMs - cached.fetchedAtMs < this.cacheMs) return 'missing' in cached ? null : cached;
    const [row] = await this.db
      .select({ key: apiKeys, company: { id: companies.id, name: companies.name, slug: companies.slug } })
      .from(apiKeys)
      .innerJoin(companies, eq(companies.id, apiKeys.companyId))
      .where(eq(apiKeys.keyId, keyId))
      .limit(1);
    if (!row) {
      this.remember(keyId, { missing: true, fetchedAtMs: nowMs });
      return null;
    }
    const record: CachedKey = {
      key: { id: row.key.id, name: row.key.name, scopes: row.key.scopes, rateLimitPerMin: row.key.rateLimitPerMin, company: row.company },
      secretHash: row.key.secretHash,
      expiresAt: row.key.expiresAt,
      revokedAt: row.key.revokedAt,
      fetchedAtMs: nowMs,
    };
    this.remember(keyId, record);
    return record;
  }

  private remember(keyId: string, entry: CachedKey | CachedMiss): void {
    this.cache.delete(keyId);
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
