import { lazyPlugin, type Feature } from '../feature.js';
import { effectivenessSweep, responseCheckConsumer } from './check-effectiveness.js';
import { calendarConsumer } from './follow-calendar.js';
import { openCasesConsumer } from './open-case.js';
import { treatmentSchemas } from './schemas.js';
import { overdueSweep } from './sweep-overdue.js';

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
  schemas: treatmentSchemas,
  tasks: [overdueSweep, effectivenessSweep],
  responseConsumers: [openCasesConsumer, responseCheckConsumer],
  settingsConsumers: [calendarConsumer],
};
