import { lazyPlugin, type Feature } from '../feature.js';
import { effectivenessSweep, responseCheckConsumer } from './check-effectiveness.js';
import { openCasesConsumer } from './open-case.js';
import { treatmentSchemas } from './schemas.js';
import { overdueSweep } from './sweep-overdue.js';

export const treatmentsFeature: Feature = {
  name: 'treatments',
  routes: lazyPlugin(async () => (await import('./routes.js')).treatmentRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).holidayPanelRoutes),
  schemas: treatmentSchemas,
  tasks: [overdueSweep, effectivenessSweep],
  responseConsumers: [openCasesConsumer, responseCheckConsumer],
};
