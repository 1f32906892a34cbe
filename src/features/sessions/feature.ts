import { lazyPlugin, type Feature } from '../feature.js';

export const sessionsFeature: Feature = {
  name: 'sessions',
  // the session routes and the person's own account (name, password, second factor, sessions)
  panelRoutes: lazyPlugin(async () => {
    const [{ sessionPanelRoutes }, { accountPanelRoutes }] = await Promise.all([import('./panel-routes.js'), import('./account-panel-routes.js')]);
    return async (panel) => {
      await sessionPanelRoutes(panel);
      await accountPanelRoutes(panel);
    };
  }),
};
