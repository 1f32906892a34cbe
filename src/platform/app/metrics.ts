import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Clock } from '../../lib/clock.js';
import type { ReplicaProbe } from '../db/replica.js';
import type { BacklogProbe } from '../outbound/index.js';

/**
 * Prometheus metrics: request counts and latency by route and status, the job queue depth, the
 * age of each outbound backlog's oldest due item, and (with READ_DATABASE_URL) the replica's lag.
 */
export function registerMetrics(
  app: FastifyInstance,
  deps: { pool: pg.Pool; clock: Clock; backlog: readonly BacklogProbe[]; replica: ReplicaProbe | null },
): Registry {
  const { pool } = deps;
  const registry = new Registry();
  const requests = new Counter({
    name: 'quorum_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'quorum_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'quorum_job_queue_depth',
    help: 'Jobs waiting in the queue (due or scheduled, not locked)',
    labelNames: ['task'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const { rows } = await pool.query<{ task: string; depth: number }>(
        // graphile-worker's public view, not its private tables: an upgrade may reshape those.
        `SELECT task_identifier AS task, count(*)::int AS depth
           FROM graphile_worker.jobs
          WHERE locked_at IS NULL AND attempts < max_attempts
          GROUP BY task_identifier`,
      );
      for (const row of rows) this.set({ task: row.task }, row.depth);
    },
  });

  new Gauge({
    name: 'quorum_backlog_oldest_due_seconds',
    help: 'Seconds the oldest due item of each outbound kind has waited (0 when none waits)',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      const now = deps.clock.now();
      const ages = await Promise.all(
        deps.backlog.map(async (probe) => {
          const { rows } = await pool.query<{ due: Date | null }>(probe.oldestDue, [now]);
          const due = rows[0]?.due;
          return [probe.kind, due ? Math.max(0, (now.getTime() - due.getTime()) / 1000) : 0] as const;
        }),
      );
      for (const [kind, age] of ages) this.set({ kind }, age);
    },
  });

  if (deps.replica) registerReplicaMetrics(registry, deps.replica);

  // Label children are bound once per (method, route, status): hashing labels on every request is the costly part.
  const children = new Map<string, { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof latency.labels> }>();
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL, so ids do not explode the label set.
    const route = request.routeOptions.url ?? 'unmatched';
    const cacheKey = `${request.method} ${route} ${reply.statusCode}`;
    let child = children.get(cacheKey);
    if (!child) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      child = { count: requests.labels(labels), time: latency.labels(labels) };
      children.set(cacheKey, child);
    }
    child.count.inc();
    child.time.observe(reply.elapsedTime / 1000);
  });
  return registry;
}

/** The read replica: whether it answers, how far its replay is behind, and how often reads went to the primary instead. */
function registerReplicaMetrics(registry: Registry, replica: ReplicaProbe): void {
  let lag: Promise<number | null> | null = null;
  // One probe per scrape feeds both gauges.
  const probe = () => (lag ??= replica.lagSeconds().finally(() => setImmediate(() => (lag = null))));
  new Gauge({
    name: 'quorum_replica_up',
    help: 'Whether the read replica (READ_DATABASE_URL) answers: 1 or 0',
    registers: [registry],
    async collect() {
      this.set((await probe()) === null ? 0 : 1);
    },
  });
  new Gauge({
    name: 'quorum_replica_lag_seconds',
    help: "Seconds the read replica's replay is behind the primary (0 when it has replayed all it received); NaN while it does not answer",
    registers: [registry],
    async collect() {
      this.set((await probe()) ?? Number.NaN);
    },
  });
  new Counter({
    name: 'quorum_replica_fallback_connections_total',
    help: 'Connections for heavy reads taken from the primary because the read replica did not answer',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(replica.fallbacks());
    },
  });
}
