import type { Feature } from '../feature.js';
import { pruneUploads } from './prune-uploads.job.js';
import { respondentApi } from './api/routes.js';
import { respondentSchemas } from './api/schemas.js';
import { respondentPages } from './pages/routes.js';

/**
 * The respondent surface: the JSON API under /r/v1 (credential: the invite token, or none on a
 * public link) and the pages /i/{token} and /f/{companySlug}/{formSlug}.
 */
export const respondentFeature: Feature = {
  name: 'respondent',
  tasks: [pruneUploads],
  schemas: respondentSchemas,
  pages: async (app) => {
    await app.register(respondentApi, { prefix: '/r/v1' });
    await app.register(respondentPages);
  },
};
