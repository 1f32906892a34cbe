import type { Feature } from '../feature.js';
import { respondentPages } from './pages/routes.js';

/** The respondent surface: the pages /i/{token} and /f/{companySlug}/{formSlug} (the /r/v1 API joins on merge). */
export const respondentFeature: Feature = {
  name: 'respondent',
  pages: async (app) => {
    await app.register(respondentPages);
  },
};
