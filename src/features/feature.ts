import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Context } from '../platform/context.js';
import type { TaskDefinition } from '../platform/jobs/define-task.js';
import type { EventConsumer } from './events/event-consumer.js';
import type { BacklogProbe, LogFn, OutboundKind, OutboundLoopOptions } from '../platform/outbound/index.js';
import type { SettingsConsumer } from './companies/settings-consumer.js';
import type { ResponseConsumer, ResponseHandler } from './responses/response-consumer.js';

/**
 * What a feature adds to the service, declared in its own folder (feature.ts) and listed once in
 * src/features/index.ts: the app, the worker and emitEvent read these lists, so a new feature
 * edits no other feature's files.
 */
type Plugin = (app: FastifyInstance) => Promise<void>;

/**
 * A route or page plugin imported only when the app registers it. Every context reads this registry
 * (for the consumers), the CLI and the worker included; importing routes eagerly would load Fastify,
 * every schema and every service into each CLI command (bench/README.md, cli-start).
 */
export function lazyPlugin(load: () => Promise<Plugin>): Plugin {
  return async (app) => (await load())(app);
}

/**
 * A response consumer whose code loads with the first response it sees: the registry names it,
 * and every context (each CLI command's too) reads the registry (bench/README.md, cli-start).
 */
export function lazyResponseConsumer(name: string, load: () => Promise<ResponseHandler>): ResponseConsumer {
  return { name, onResponse: async (...args) => (await load()).onResponse(...args) };
}

/** One kind of outbound work and the settings the worker's claim → send → record loop runs it with. */
export interface OutboundLane {
  kind: OutboundKind<any, any>;
  options?: OutboundLoopOptions;
}

export interface Feature {
  name: string;
  /** Authenticated /v1 routes (each declares its scope in config.scope, or refuses to register), through lazyPlugin. */
  routes?: Plugin;
  /**
   * Session-authenticated /panel/api routes (each declares config.permission, null for any member,
   * or public: true, or refuses to register), through lazyPlugin.
   */
  panelRoutes?: Plugin;
  /** Pages and callbacks outside /v1, with credentials of their own (an invite token, a provider signature), through lazyPlugin. */
  pages?: Plugin;
  /**
   * Shared schemas (with $id) its routes reference; published in the OpenAPI document. Loaded when
   * the app is built (await import), as the routes are.
   */
  schemas?: () => Promise<TSchema[]>;
  /** Jobs and sweeps (defineSweep) the worker runs; loaded when a worker starts (await import). */
  tasks?: () => Promise<TaskDefinition<any>[]>;
  /**
   * The outbound kinds the worker sends (webhooks, e-mail, WhatsApp), one loop each. Called once
   * when a worker starts; a kind loads its transport there (await import), not with the registry.
   */
  outboundKinds?: (ctx: Context, log: LogFn) => Promise<OutboundLane[]>;
  /** The age of each outbound kind's oldest due item, for /metrics. */
  backlog?: BacklogProbe[];
  /** Acts on every stored event, inside the event's statement. */
  eventConsumers?: EventConsumer[];
  /** Acts on every new response, inside the response's transaction (recordResponse); through lazyResponseConsumer. */
  responseConsumers?: ResponseConsumer[];
  /** Follows a company's settings change, inside its transaction (updateCompanySettings). */
  settingsConsumers?: SettingsConsumer[];
}
