import { lazyPlugin, type Feature } from '../feature.js';

export const remindersFeature: Feature = {
  name: 'reminders',
  routes: lazyPlugin(async () => (await import('./routes.js')).reminderRoutes),
  panelRoutes: lazyPlugin(async () => (await import('./panel-routes.js')).reminderPanelRoutes),
  schemas: async () => (await import('./schemas.js')).reminderSchemas,
  tasks: async () => [(await import('./reminders.job.js')).sendRemindersSweep],
};
