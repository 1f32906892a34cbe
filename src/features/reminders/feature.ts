import { lazyPlugin, type Feature } from '../feature.js';
import { sendRemindersSweep } from './reminders.job.js';
import { reminderSchemas } from './schemas.js';

export const remindersFeature: Feature = {
  name: 'reminders',
  routes: lazyPlugin(async () => (await import('./routes.js')).reminderRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).reminderPanelRoutes),
  schemas: reminderSchemas,
  tasks: [sendRemindersSweep],
};
