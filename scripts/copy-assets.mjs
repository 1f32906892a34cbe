// Copies non-TypeScript assets (SQL migrations, static files) where the bundled CLI looks for them
// (scripts/build-cli.mjs: beside each module's place under dist/), and
// bundles the respondent pages' script (src/features/respondent/pages/script-asset.ts reads it).
import { cpSync, existsSync } from 'node:fs';
import { build } from 'esbuild';
for (const dir of ['platform/db/migrations', 'demo/data']) {
  if (existsSync(`src/${dir}`)) cpSync(`src/${dir}`, `dist/${dir}`, { recursive: true, filter: (p) => !p.endsWith('.ts') });
}
// the same options as SCRIPT_BUILD_OPTIONS in script-asset.ts
await build({
  entryPoints: ['src/features/respondent/pages/client/respond.ts'],
  outfile: 'dist/features/respondent/pages/respond.js',
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2019',
  platform: 'browser',
  legalComments: 'none',
});
