// Copies non-TypeScript assets (SQL migrations, static files) next to the compiled code, and
// bundles the respondent pages' script (src/features/respondent/pages/script-asset.ts reads it).
import { chmodSync, cpSync, existsSync } from 'node:fs';
import { build } from 'esbuild';
for (const dir of ['platform/db/migrations', 'demo/data']) {
  if (existsSync(`src/${dir}`)) cpSync(`src/${dir}`, `dist/${dir}`, { recursive: true, filter: (p) => !p.endsWith('.ts') });
}
// tsc writes files without the execute bit, and npm sets it on the package's own bin only at the
// first install: a rebuild (a second `npm ci` runs `prepare` again) would leave `npx quorum` denied.
chmodSync('dist/cli/main.js', 0o755);
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
