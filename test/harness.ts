import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildAppOptions } from '../src/platform/app/build-app.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../src/platform/app/rate-limiter.js';
import { loadConfig, type Config } from '../src/platform/config.js';
import { createContext, type Context, type ContextOverrides } from '../src/platform/context.js';
import { TestClock } from './test-clock.js';
import { createCompany } from '../src/features/companies/create-company.js';
import { createKey } from '../src/features/keys/create-key.js';
import { SCOPES, type Scope } from '../src/features/keys/scopes.js';
import { ContractChecker, type OpenApiDocument } from './contract.js';

export const TEST_START = '2026-03-02T09:00:00.000Z';


export function testDatabaseUrl(database: string): string {
  const url = new URL(inject('pgAdminUrl'));
  url.pathname = `/${database}`;
  return url.toString();
}

/** A fresh database cloned from the migrated template; dropped by the returned function. */
export async function cloneDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `quorum_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  } finally {
    await admin.end();
  }
  return {
    url: testDatabaseUrl(name),
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: inject('pgAdminUrl') });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await c.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  ctx: Context;
  clock: TestClock;
  databaseUrl: string;
  /** A company with a unique slug. */
  company(name?: string): Promise<{ id: string; name: string; slug: string }>;
  /** A key of that company; scopes default to all. Returns the token. */
  key(companyId: string, options?: { scopes?: Scope[]; rateLimitPerMin?: number; expiresAt?: Date }): Promise<{ token: string; id: string }>;
  /** A company plus an all-scopes key. */
  tenant(): Promise<{ company: { id: string; name: string; slug: string }; token: string; keyId: string }>;
  request(token: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  get(token: string | null, url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(token: string | null, url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions extends BuildAppOptions, Omit<ContextOverrides, 'clock' | 'database'> {
  config?: Partial<Config>;
}

export function testConfig(databaseUrl: string, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ SECRET_KEY: 'test-secret-key-that-is-long-enough-000', QUORUM_DATA_DIR: '/tmp/quorum-test-data' }),
    databaseUrl,
    webhookAllowPrivateTargets: true,
    logLevel: 'silent',
    ...overrides,
  };
}

/** The real app on its own cloned database, with a manual clock. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const cloned = await cloneDatabase();
  const clock = new TestClock(TEST_START);
  TestClock.live.add(clock);
  const ctx = await createContext(testConfig(cloned.url, options.config), {
    poolSize: 5,
    ...options,
    clock,
    limiter: options.limiter ?? redisLimiterForTests(cloned.name) ?? new MemoryRateLimiter(),
  });
  const app = await buildApp(ctx, options);
  await app.ready();
  let companies = 0;

  const contract = new ContractChecker(app.swagger() as unknown as OpenApiDocument);
  // Every answer a test receives must match the published OpenAPI document.
  const request = async (token: string | null, opts: InjectOptions) => {
    const res = await app.inject({ ...opts, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...opts.headers } });
    contract.check(String(opts.method ?? 'GET'), String(opts.url ?? opts.path ?? '/'), res.statusCode, res.body);
    return res;
  };

  const harness: TestApp = {
    app,
    ctx,
    clock,
    databaseUrl: cloned.url,
    async company(name = 'Test School') {
      companies += 1;
      const row = await createCompany(ctx.db, ctx, { name, slug: `co-${companies}-${randomBytes(3).toString('hex')}` });
      return { id: row.id, name: row.name, slug: row.slug };
    },
    async key(companyId, opts = {}) {
      const { key, token } = await createKey(ctx.db, ctx, {
        companyId,
        name: 'test key',
        scopes: opts.scopes ?? [...SCOPES],
        rateLimitPerMin: opts.rateLimitPerMin ?? 10_000,
        expiresAt: opts.expiresAt,
      });
      return { token, id: key.id };
    },
    async tenant() {
      const company = await harness.company();
      const { token, id } = await harness.key(company.id);
      return { company, token, keyId: id };
    },
    request,
    get: (token, url, headers) => request(token, { method: 'GET', url, headers }),
    post: (token, url, body, headers) =>
      request(token, { method: 'POST', url, ...(body === undefined ? {} : { payload: body as object }), headers }),
    async close() {
      TestClock.live.delete(clock);
      await app.close();
      await ctx.close();
      await cloned.drop();
    },
  };
  return harness;
}

export function redisLimiterForTests(prefix: string): RateLimiter | null {
  const url = process.env.REDIS_URL;
  return url ? new RedisRateLimiter(url, `quorum:test:${prefix}:`) : null;
}
