import { lazyPlugin, type Feature } from '../feature.js';

/** Companies have no /v1 routes (the CLI manages them); the panel shows and changes the current company's settings. */
export const companiesFeature: Feature = { name: 'companies', panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).companyPanelRoutes) };
