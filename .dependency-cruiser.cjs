/**
 * The dependency rule, run by `npm run lint` (docs/CONTRIBUTING.md, "A feature's public face").
 * Test files are left out: a test may reach into the feature it tests and into the fixtures of others.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const HTTP_FILE = '(/routes\\.ts|/panel-routes\\.ts|/plugin\\.ts|/pages/.+)$';
/**
 * Bundled by esbuild for the browser (scripts/copy-assets.mjs): the respondent page script and the
 * code it shares with the server. An index would load the server's code, so these import files.
 */
const BROWSER_SAFE =
  '^src/features/(respondent/pages/(client/|read-answers\\.ts$)|forms/rules/|forms/definition/(types|vocabulary|tree)\\.ts$|dims/canonical\\.ts$)';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment:
        'No import cycle among the sources: ESM loads a cycle half-initialised. Type-only imports vanish when compiled, and an await import() runs once every module has loaded, so neither counts.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only', 'dynamic-import'], viaOnly: { dependencyTypesNot: ['type-only', 'dynamic-import'] } },
    },
    {
      name: 'feature-public-face',
      comment: 'A feature uses another feature only through its index.ts.',
      severity: 'error',
      from: { path: '^src/features/([^/]+)/', pathNot: BROWSER_SAFE },
      to: { path: '^src/features/[^/]+/', pathNot: ['^src/features/$1/', '^src/features/[^/]+/index\\.ts$'] },
    },
    {
      name: 'browser-safe-stays-safe',
      comment: 'Code bundled for the browser uses no other feature code than the browser-safe files.',
      severity: 'error',
      from: { path: BROWSER_SAFE },
      to: { path: '^src/features/', pathNot: BROWSER_SAFE, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-route-to-route',
      comment: "A route or page file never imports another feature's route or page file.",
      severity: 'error',
      from: { path: `^src/features/([^/]+)/.*${HTTP_FILE}` },
      to: { path: `^src/features/[^/]+/.*${HTTP_FILE}`, pathNot: '^src/features/$1/' },
    },
    {
      name: 'lib-stands-alone',
      comment: 'src/lib holds small shared pieces: it knows no feature, no platform, no CLI, no demo.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/(features|platform|cli|demo)/' },
    },
    {
      name: 'features-know-no-cli',
      comment: 'The CLI drives the features, never the other way round.',
      severity: 'error',
      from: { path: '^src/features/' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    exclude: { path: '\\.test\\.ts$' },
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count for the public face: a type is part of it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
