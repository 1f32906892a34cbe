import { lazyPlugin, type Feature } from '../feature.js';

/**
 * The respondent surface: the JSON API under /r/v1 (credential: the invite token, or none on a
 * public link) and the pages /i/{token} and /f/{companySlug}/{formSlug}.
 */
export const respondentFeature: Feature = {
  name: 'respondent',
  // the form builder's live preview: the pages' renderer behind the panel's session (permission forms)
  panelRoutes: lazyPlugin(async () => (await import('./pages/preview-panel-routes.js')).previewPanelRoutes),
  tasks: async () => [(await import('./prune-uploads.job.js')).pruneUploads],
  schemas: async () => (await import('./api/schemas.js')).respondentSchemas,
  // Loaded when the app is built, never by the CLI (src/cli/start-up.test.ts).
  pages: async (app) => {
    const [{ respondentApi }, { respondentPages }] = await Promise.all([import('./api/routes.js'), import('./pages/routes.js')]);
    await app.register(respondentApi, { prefix: '/r/v1' });
    await app.register(respondentPages);
  },
};
