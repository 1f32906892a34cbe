import type { Feature } from '../feature.js';
import { effectivenessSweep, responseCheckConsumer } from './check-effectiveness.js';
import { openCasesConsumer } from './open-case.js';
import { treatmentRoutes, treatmentSchemas } from './routes.js';
import { overdueSweep } from './sweep-overdue.js';

export const treatmentsFeature: Feature = {
  name: 'treatments',
  routes: treatmentRoutes,
  schemas: treatmentSchemas,
  tasks: [overdueSweep, effectivenessSweep],
  responseConsumers: [openCasesConsumer, responseCheckConsumer],
};
