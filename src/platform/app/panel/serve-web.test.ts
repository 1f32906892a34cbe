/**
 * The panel's web app as served: a small build of our own in a temporary folder (the serving rules,
 * not Vite's output, are under test), then the answers' compression, caching, fallback and headers.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createContext, type Context } from '../../context.js';
import { buildApp } from '../build-app.js';
import { PANEL_CSP } from './serve-web.js';

const INDEX = '<!doctype html><html lang="en"><head><script type="module" src="/panel/assets/app-0f3a9c1d.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i % 37}`))};\n`;
const STYLE = `${Array.from({ length: 200 }, (_, i) => `.c${i % 23} { color: red; }`).join('\n')}\n`;

function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'quorum-panel-serve-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets/app-0f3a9c1d.js'), SCRIPT);
  writeFileSync(join(dir, 'assets/app-0f3a9c1d.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(dir, 'assets/app-0f3a9c1d.js.gz'), gzipSync(SCRIPT));
  // no twins: compressed on the way out
  writeFileSync(join(dir, 'assets/style-77aa01bc.css'), STYLE);
  return dir;
}

async function appServing(panelDir: string): Promise<{ app: FastifyInstance; ctx: Context }> {
  // the pool is never queried: serving files needs no database
  const config = {
    ...loadConfig({ QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-data-')), SECRET_KEY: 'x'.repeat(32), LOG_LEVEL: 'silent' }),
    databaseUrl: 'postgres://unused@127.0.0.1:1/unused',
  };
  const ctx = await createContext(config);
  const app = await buildApp(ctx, { panelDir });
  await app.ready();
  return { app, ctx };
}

function expectPanelHeaders(headers: Record<string, unknown>) {
  expect(headers['content-security-policy']).toBe(PANEL_CSP);
  expect(PANEL_CSP).toMatch(/script-src 'self'(;|$)/);
  expect(PANEL_CSP).toContain("frame-ancestors 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-content-type-options']).toBe('nosniff');
}

describe('the panel web app served at /panel', () => {
  let app: FastifyInstance;
  let ctx: Context;
  beforeAll(async () => {
    ({ app, ctx } = await appServing(fakeBuild()));
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });

  it.each(['/panel', '/panel/', '/panel/sign-in', '/panel/members/0190f0c4?tab=2', '/panel/set-password'])('GET %s answers the app page, never cached, with the security headers', async (url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
    expectPanelHeaders(res.headers);
  });

  it('hashed assets: the pre-compressed brotli or gzip twin, cached for a year, immutable', async () => {
    const br = await app.inject({ method: 'GET', url: '/panel/assets/app-0f3a9c1d.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expectPanelHeaders(br.headers);

    const gz = await app.inject({ method: 'GET', url: '/panel/assets/app-0f3a9c1d.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await app.inject({ method: 'GET', url: '/panel/assets/app-0f3a9c1d.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('an asset without a twin is compressed on the way out', async () => {
    const res = await app.inject({ method: 'GET', url: '/panel/assets/style-77aa01bc.css', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(STYLE);
  });

  it('a missing asset is a 404, not the app page (a stale tab must not run HTML as a script)', async () => {
    const res = await app.inject({ method: 'GET', url: '/panel/assets/app-deadbeef.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });

  it.each([
    ['GET', '/panel/api/no-such-route'],
    ['GET', '/panel/api'],
    ['POST', '/panel/api/no-such-route'],
    ['GET', '/panel/api/no/such/route'],
  ] as const)('%s %s is not swallowed by the page fallback: the envelope 404 of the API', async (method, url) => {
    const res = await app.inject({ method, url });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });

  it('only page reads fall back: a POST to a page path is a 404', async () => {
    const res = await app.inject({ method: 'POST', url: '/panel/sign-in', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('paths that only begin like the panel are not the panel', async () => {
    const res = await app.inject({ method: 'GET', url: '/panelx' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-security-policy']).toBeUndefined();
  });
});

describe('the panel without a build', () => {
  let app: FastifyInstance;
  let ctx: Context;
  beforeAll(async () => {
    ({ app, ctx } = await appServing(mkdtempSync(join(tmpdir(), 'quorum-panel-empty-'))));
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });

  it('a page answers 503 saying to run npm run build', async () => {
    const res = await app.inject({ method: 'GET', url: '/panel/sign-in' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('npm run build');
    expectPanelHeaders(res.headers);
  });

  it('the API paths still answer the envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/panel/api/session' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
  });
});
