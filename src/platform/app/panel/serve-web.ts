/**
 * The panel's web app at /panel: the files Vite built into dist/panel (hashed assets cached for a
 * year, pre-compressed .br/.gz beside them, anything else compressed on the way out), and the
 * app's index.html for every other page path so the browser-side router takes over (SPA fallback).
 * /panel/api is a sibling plugin: its paths never fall back to the page. Every answer here carries
 * the panel's security headers; the strict CSP is why the app has no inline script.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFoundHandler } from '../error-handler.js';

/** dist/panel of this package: four levels above src/platform/app/panel (or dist/platform/app/panel once built). */
export const PANEL_DIST = fileURLToPath(new URL('../../../../dist/panel/', import.meta.url));

const ASSETS = '/panel/assets/';
const API = /^\/panel\/api(?:\/|\?|$)/;

export const PANEL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Mantine sets CSS variables in a <style> element and style attributes at run time
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': PANEL_CSP,
  'x-frame-options': 'DENY',
  // one-time tokens travel in the fragment; no page address leaves in a Referer either
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cross-origin-opener-policy': 'same-origin',
};

const MISSING_BUILD = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Quorum panel not built</title></head>
<body><main><h1>The panel is not built</h1>
<p>This server has no web app to serve: run <code>npm run build</code> (it builds the panel into <code>dist/panel</code>) and start the server again.</p>
</main></body></html>
`;

export interface ServeWebOptions {
  /** The built app (tests point it at a build of their own). */
  dir?: string;
}

function isPagePath(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0];
  return (request.method === 'GET' || request.method === 'HEAD') && !API.test(path) && !path.startsWith(ASSETS);
}

export async function serveWeb(app: FastifyInstance, options: ServeWebOptions = {}): Promise<void> {
  const dir = options.dir ?? PANEL_DIST;
  const indexFile = join(dir, 'index.html');
  const built = existsSync(indexFile);
  // Its own prefix: a not-found handler (the fallback) may be set once per prefix.
  await app.register(
    async (panel) => {
      panel.addHook('onRequest', async (_request, reply) => {
        reply.headers(SECURITY_HEADERS);
      });

      if (!built) {
        panel.setNotFoundHandler((request, reply) => {
          if (API.test(request.url)) return notFoundHandler(request, reply);
          return reply.code(503).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(MISSING_BUILD);
        });
        return;
      }

      // Read once: a rebuild takes a restart, and the hashed asset names change with it.
      const index = readFileSync(indexFile);
      const sendIndex = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index);

      await panel.register(compress, { encodings: ['br', 'gzip'], threshold: 1024 });
      await panel.register(fastifyStatic, {
        root: dir,
        prefix: '/',
        // a route per built file: unknown paths reach the fallback below, and /panel/api/* never matches here
        wildcard: false,
        globIgnore: ['**/*.br', '**/*.gz'],
        preCompressed: true,
        index: false,
        cacheControl: false,
        setHeaders: (reply, path) => {
          const immutable = path.startsWith(join(dir, 'assets'));
          reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
      // '/' under the prefix answers both /panel and /panel/
      panel.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
      panel.setNotFoundHandler((request, reply) => (isPagePath(request) ? sendIndex(reply) : notFoundHandler(request, reply)));
    },
    { prefix: '/panel' },
  );
}
