/**
 * The panel web app's build: served by the API process at /panel (src/platform/app/panel/serve-web.ts),
 * built by `npm run build` into dist/panel. Hashed file names under assets/ are cached forever,
 * and each text file gets .br and .gz twins so the server sends them without compressing per request.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|css|html|svg|json)$/;

/** .br (quality 11) and .gz (level 9) beside every text file over 1 KiB, as @fastify/static's preCompressed expects. */
function precompress(): Plugin {
  return {
    name: 'quorum-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? '';
      for (const name of [...Object.keys(bundle), 'index.html']) {
        if (!COMPRESSIBLE.test(name)) continue;
        const path = join(dir, name);
        const content = readFileSync(path);
        if (content.length < 1024) continue;
        writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }));
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/panel/',
  plugins: [react(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/panel', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // no inline data: URLs, so nothing depends on the CSP allowing them
    assetsInlineLimit: 0,
    target: 'es2022',
    sourcemap: false,
    // the shared vendor chunk below is one file on purpose (~815 kB, ~210 kB brotli)
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      output: {
        // What every page runs in a few files, fetched beside the entry, rather than ~50 small shared chunks that a
        // page's import reaches only once the entry has run (six at a time over HTTP/1.1): the libraries every page
        // uses, and the app's own shared pieces. A page's chunk then holds the page and what only it uses.
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /node_modules[\\/](?:react|react-dom|scheduler|@mantine[\\/](?:core|hooks)|@floating-ui|@tanstack[\\/](?:react-query|query-core|react-router|router-core|history|react-store|store)|react-hook-form|i18next|react-i18next|openapi-fetch)[\\/]/ },
            { name: 'app', test: /web[\\/]panel[\\/]src[\\/](?:ui|api|i18n)[\\/]/ },
          ],
        },
      },
    },
  },
});
