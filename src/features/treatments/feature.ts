import { lazyPlugin, lazyResponseConsumer, type Feature } from '../feature.js';
import { calendarConsumer } from './follow-calendar.js';

export const treatmentsFeature: Feature = {
  name: 'treatments',
  routes: lazyPlugin(async () => (await import('./routes.js')).treatmentRoutes),
  panelRoutes: lazyPlugin(async () => {
    const [{ holidayPanelRoutes }, { casePanelRoutes }, { flowPanelRoutes }] = await Promise.all([
      import('./panel-routes.js'),
      import('./case-panel-routes.js'),
      import('./flow-panel-routes.js'),
    ]);
    return async (panel) => {
      await holidayPanelRoutes(panel);
      await casePanelRoutes(panel);
      await flowPanelRoutes(panel);
    };
  }),
  schemas: async () => (await import('./schemas.js')).treatmentSchemas,
  tasks: async () => {
    const [{ overdueSweep }, { effectivenessSweep }] = await Promise.all([import('./sweep-overdue.js'), import('./check-effectiveness.js')]);
    return [overdueSweep, effectivenessSweep];
  },
  responseConsumers: [
    lazyResponseConsumer('treatments', async () => (await import('./open-case.js')).openCasesConsumer),
    lazyResponseConsumer('treatments.effectiveness', async () => (await import('./check-effectiveness.js')).responseCheckConsumer),
  ],
  settingsConsumers: [calendarConsumer],
};
