import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TaskDefinition } from '../jobs/define-task.js';
import type { EventConsumer } from './events/event-consumer.js';
import type { ResponseConsumer } from './responses/response-consumer.js';

/**
 * What a feature adds to the service, declared in its own folder (feature.ts) and listed once in
 * src/features/index.ts: the app, the worker and emitEvent read these lists, so a new feature
 * edits no other feature's files.
 */
export interface Feature {
  name: string;
  /** Authenticated /v1 routes (each declares its scope in config.scope). */
  routes?: (v1: FastifyInstance) => Promise<void>;
  /** Pages and callbacks outside /v1, with credentials of their own (an invite token, a provider signature). */
  pages?: (app: FastifyInstance) => Promise<void>;
  /** Shared schemas (with $id) its routes reference; published in the OpenAPI document. */
  schemas?: TSchema[];
  /** Jobs and sweeps the worker runs. */
  tasks?: TaskDefinition<any>[];
  /** Acts on every stored event, inside the event's statement. */
  eventConsumers?: EventConsumer[];
  /** Acts on every new response, inside the response's transaction (recordResponse). */
  responseConsumers?: ResponseConsumer[];
}
