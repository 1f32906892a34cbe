import Fastify from 'fastify';
import { buildApp } from '../src/platform/app/build-app.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../src/platform/app/rate-limiter.js';
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { createCompany } from '../src/features/companies/create-company.js';
import { createKey } from '../src/features/keys/create-key.js';
import { benchDatabase, measuredLoad, printTable, type MeasuredLoad } from './support.js';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = 2;
const DATABASE = 'quorum_bench_me';

/** A bare Fastify route answering a constant: the ceiling this machine allows. */
async function bareServer() {
  const app = Fastify({ logger: false });
  app.get('/bare', async () => ({ success: true, data: { ok: true } }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app;
}

async function quorumServer(limiter: RateLimiter) {
  const database = await benchDatabase(DATABASE);
  const ctx = await createContext({ ...loadConfig(), logLevel: 'silent' }, { database, limiter });
  const company = await createCompany(ctx.db, ctx, { name: 'Bench', slug: `bench-${Date.now()}` });
  const { token } = await createKey(ctx.db, ctx, { companyId: company.id, name: 'bench', scopes: [], rateLimitPerMin: 1_000_000 });
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, token, pool: ctx.pool, close: async () => (await app.close(), await ctx.close(), await database.close()) };
}

function mean(results: MeasuredLoad[]) {
  const avg = (pick: (r: MeasuredLoad) => number) => results.reduce((s, r) => s + pick(r), 0) / results.length;
  return { requestsPerSec: avg((r) => r.requestsPerSec), p50: avg((r) => r.p50), p99: avg((r) => r.p99), non2xx: avg((r) => r.non2xx), perCpuSecond: avg((r) => r.perCpuSecond) };
}

const plan = (url: string, headers: Record<string, string> = {}) => ({ url, method: 'GET' as const, connections: CONNECTIONS, seconds: SECONDS, headers });

/**
 * Alternates the baseline and the measured route so drift on a noisy machine hits both alike,
 * after a warm-up round of each; the load comes from another process (bench/load-child.ts).
 */
async function compare(label: string, limiter: RateLimiter, bareUrl: string) {
  const quorum = await quorumServer(limiter);
  const meUrl = `http://127.0.0.1:${(quorum.app.server.address() as { port: number }).port}/v1/me`;
  const database = { pool: quorum.pool, name: DATABASE };
  const auth = { authorization: `Bearer ${quorum.token}` };
  await measuredLoad({ ...plan(bareUrl), seconds: 2 });
  await measuredLoad({ ...plan(meUrl, auth), seconds: 2 }, database);
  const bare: MeasuredLoad[] = [];
  const me: MeasuredLoad[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(await measuredLoad(plan(bareUrl)));
    me.push(await measuredLoad(plan(meUrl, auth), database));
  }
  await quorum.close();
  const b = mean(bare);
  const m = mean(me);
  if (m.non2xx > 0) throw new Error(`/v1/me answered ${m.non2xx} non-2xx responses during the run`);
  return [
    { route: 'bare Fastify constant', limiter: '-', 'req/s': Math.round(b.requestsPerSec), 'p50 ms': b.p50, 'p99 ms': b.p99, 'req per CPU-s': Math.round(b.perCpuSecond), ratio: 1, 'per-CPU ratio': 1 },
    {
      route: 'GET /v1/me (auth + rate limit)',
      limiter: label,
      'req/s': Math.round(m.requestsPerSec),
      'p50 ms': m.p50,
      'p99 ms': m.p99,
      'req per CPU-s': Math.round(m.perCpuSecond),
      ratio: m.requestsPerSec / b.requestsPerSec,
      'per-CPU ratio': m.perCpuSecond / b.perCpuSecond,
    },
  ];
}

export async function run(): Promise<void> {
  const bare = await bareServer();
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/bare`;
  console.log(`GET /v1/me vs a bare Fastify route: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s each`);
  const rows = await compare('memory', new MemoryRateLimiter(), bareUrl);
  if (process.env.REDIS_URL) rows.push(...(await compare('redis', new RedisRateLimiter(process.env.REDIS_URL, `quorum:bench:${Date.now()}:`), bareUrl)));
  printTable(rows);
  await bare.close();
}
