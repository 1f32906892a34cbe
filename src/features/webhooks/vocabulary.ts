import type { DeliveryStatus } from './table.js';

/** Words of the webhook services that the CLI's options name; a file of their own so the CLI can list them without loading the services. */
export const ALL_TYPES = '*';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];
