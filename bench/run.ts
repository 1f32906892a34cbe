/**
 * Runs one named benchmark: `npm run bench -- <name>`; with no name, lists them.
 * Each bench prints a table and its ratio against a baseline measured in the same run.
 */
const benches: Record<string, () => Promise<{ run: () => Promise<void> }>> = {
  'app-start': () => import('./app-start.js'),
  goals: () => import('./goals.js'),
  'cli-start': () => import('./cli-start.js'),
  kit: () => import('./kit.js'),
  invites: () => import('./invites.js'),
  'invites-import-dims': () => import('./invites-import-dims.js'),
  me: () => import('./me.js'),
  panel: () => import('./panel.js'),
  'panel-responses': () => import('./panel-responses.js'),
  'panel-builder': () => import('./panel-builder.js'),
  'panel-import': () => import('./panel-import.js'),
  rates: () => import('./rates.js'),
  soak: () => import('./soak.js'),
  reminders: () => import('./reminders.js'),
  respond: () => import('./respond.js'),
  'responses-scan': () => import('./responses-scan.js'),
  'responses-scan-cold': () => import('./responses-scan-cold.js'),
  'roster-import': () => import('./roster-import.js'),
  statistics: () => import('./statistics.js'),
  treatments: () => import('./treatments.js'),
  webhooks: () => import('./webhooks.js'),
};

const name = process.argv[2];
if (!name || !benches[name]) {
  console.log(`usage: npm run bench -- <${Object.keys(benches).join('|')}>`);
  process.exit(name ? 1 : 0);
}
const bench = await benches[name]();
await bench.run();
process.exit(0);
