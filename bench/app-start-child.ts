/**
 * One app start for bench/app-start.ts, in its own process so nothing is compiled or cached
 * beforehand: builds the context and the app (eager or lazy serializers, argv[2]), waits for
 * app.ready(), answers one /v1/me, and prints the times as one JSON line.
 */
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { buildApp } from '../src/platform/app/build-app.js';

const eagerSerializers = process.argv[2] === 'eager';
const databaseUrl = process.argv[3];
const config = { ...loadConfig({ SECRET_KEY: 'bench-secret-key-that-is-long-enough-0000', QUORUM_DATA_DIR: '', DATABASE_URL: databaseUrl }), logLevel: 'silent' as const };
const ctx = await createContext(config, { poolSize: 2 });
const started = performance.now();
const app = await buildApp(ctx, { eagerSerializers });
await app.ready();
const ready = performance.now() - started;
const res = await app.inject({ method: 'GET', url: '/v1/me' });
const firstAnswer = performance.now() - started - ready;
await app.close();
await ctx.close();
console.log(JSON.stringify({ ready, firstAnswer, status: res.statusCode }));
