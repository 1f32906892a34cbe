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
  },
});
