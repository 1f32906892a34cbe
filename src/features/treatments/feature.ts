import type { Feature } from '../feature.js';
import { openCasesConsumer } from './open-case.js';
import { treatmentRoutes, treatmentSchemas } from './routes.js';
import { overdueSweep } from './sweep-overdue.js';

export const treatmentsFeature: Feature = {
  name: 'treatments',
  routes: treatmentRoutes,
  schemas: treatmentSchemas,
  tasks: [overdueSweep],
  responseConsumers: [openCasesConsumer],
};
