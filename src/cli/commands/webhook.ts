import { InvalidArgumentError, type Command } from 'commander';
import { EVENT_TYPES, isEventType } from '../../features/events/vocabulary.js';
import type { PublicSubscription } from '../../features/webhooks/create-subscription.js';
import type { listDeliveries } from '../../features/webhooks/list-deliveries.js';
import { ALL_TYPES, DELIVERY_STATUSES } from '../../features/webhooks/vocabulary.js';
import { table } from '../output.js';
import { companyIdForSlug, runCommand, type CliRuntime, type CommandInput } from '../runtime.js';
import { parseInstant } from '../../lib/date-time.js';

type Work = (rt: CliRuntime, input: CommandInput) => Promise<unknown>;

/** The webhook services, loaded when a command runs rather than when the CLI starts. */
async function services() {
  const modules = await Promise.all([
    import('drizzle-orm'),
    import('../../features/companies/table.js'),
    import('../../features/webhooks/create-subscription.js'),
    import('../../features/webhooks/delete-subscription.js'),
    import('../../features/webhooks/disable-subscription.js'),
    import('../../features/webhooks/enable-subscription.js'),
    import('../../features/webhooks/list-deliveries.js'),
    import('../../features/webhooks/list-subscriptions.js'),
    import('../../features/webhooks/locate-records.js'),
    import('../../features/webhooks/ping-subscription.js'),
    import('../../features/webhooks/recover-deliveries.js'),
    import('../../features/webhooks/resend-delivery.js'),
    import('../../features/webhooks/rotate-subscription-secret.js'),
    import('../../features/webhooks/table.js'),
  ]);
  return Object.assign({}, ...modules) as UnionToIntersection<(typeof modules)[number]>;
}
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

const splitList = (value: string) => value.split(',').map((item) => item.trim()).filter(Boolean);
/** --types: refused with the catalog in the message, so the operator sees what to type. */
function parseTypes(value: string): string[] {
  const types = splitList(value);
  const unknown = types.filter((type) => type !== ALL_TYPES && !isEventType(type));
  if (unknown.length) throw new InvalidArgumentError(`unknown event type ${unknown.map((t) => `"${t}"`).join(', ')}; valid: *, ${EVENT_TYPES.join(', ')}`);
  return types;
}

/** Subscriptions with the slug of their company: the operator view spans companies. */
async function listWithCompany(rt: CliRuntime, companyId: string | null) {
  const { listSubscriptions, webhookSubscriptions, companies, eq, inArray } = await services();
  const rows = await listSubscriptions(rt.ctx.db, rt.ctx, { companyId });
  if (rows.length === 0) return [];
  const owners = await rt.ctx.db
    .select({ id: webhookSubscriptions.id, company: companies.slug })
    .from(webhookSubscriptions)
    .innerJoin(companies, eq(companies.id, webhookSubscriptions.companyId))
    .where(inArray(webhookSubscriptions.id, rows.map((r) => r.id)));
  const slugOf = new Map(owners.map((o) => [o.id, o.company]));
  return rows.map((row) => ({ company: slugOf.get(row.id) ?? null, ...row }));
}

const optionalCompany = async (rt: CliRuntime, slug: string | undefined) => (slug ? companyIdForSlug(rt, slug) : null);

/** A command on one subscription named by id: the operator gives no company, the id knows it. */
const onSubscription =
  <R>(act: (rt: CliRuntime, companyId: string, id: string, opts: Record<string, any>) => Promise<R>) =>
  async (rt: CliRuntime, { args, opts }: CommandInput): Promise<R> =>
    act(rt, await (await services()).companyOfSubscription(rt.ctx.db, args[0]), args[0], opts);

export const webhookCommands = {
  create: (async (rt, { opts }) =>
    (await services()).createSubscription(rt.ctx.db, rt.ctx, {
      companyId: await companyIdForSlug(rt, opts.company),
      url: opts.url,
      types: opts.types,
      description: opts.description,
    })) satisfies Work,
  list: (async (rt, { opts }) => listWithCompany(rt, await optionalCompany(rt, opts.company))) satisfies Work,
  disable: onSubscription(async (rt, companyId, id) => (await services()).disableSubscription(rt.ctx.db, rt.ctx, { companyId, id })),
  enable: onSubscription(async (rt, companyId, id) => (await services()).enableSubscription(rt.ctx.db, rt.ctx, { companyId, id })),
  rotateSecret: onSubscription(async (rt, companyId, id) => (await services()).rotateSubscriptionSecret(rt.ctx.db, rt.ctx, { companyId, id })),
  delete: onSubscription(async (rt, companyId, id) => (await services()).deleteSubscription(rt.ctx.db, rt.ctx, { companyId, id })),
  ping: onSubscription(async (rt, companyId, id, opts) => (await services()).pingSubscription(rt.ctx.db, rt.ctx, { companyId, subscriptionId: id, message: opts.message })),
  deliveries: (async (rt, { opts }) =>
    (await services()).listDeliveries(rt.ctx.db, rt.ctx, {
      companyId: await optionalCompany(rt, opts.company),
      subscriptionId: opts.subscription,
      eventId: opts.event,
      status: opts.status,
      limit: opts.limit === undefined ? undefined : Number(opts.limit),
    })) satisfies Work,
  resend: (async (rt, { args }) => {
    const { resendDelivery, companyOfDelivery } = await services();
    return resendDelivery(rt.ctx.db, rt.ctx, { companyId: await companyOfDelivery(rt.ctx.db, args[0]), deliveryId: args[0] });
  }) satisfies Work,
  recover: (async (rt, { opts }) =>
    (await services()).recoverDeliveries(rt.ctx.db, rt.ctx, {
      companyId: await companyIdForSlug(rt, opts.company),
      // Unreadable text reaches the service as an invalid date, which it refuses with the path since.
      since: parseInstant(opts.since) ?? new Date(Number.NaN),
      subscriptionId: opts.subscription,
    })) satisfies Work,
};

const SECRET_NOTE = '(shown once, store it now; receivers verify with it)';

type Deliveries = Awaited<ReturnType<typeof listDeliveries>>;

/** Readable output of each command; --json prints the result itself. */
export const describeWebhook = {
  create: (r: { subscription: PublicSubscription; secret: string }) =>
    `created webhook ${r.subscription.id} -> ${r.subscription.url} (${r.subscription.types.join(', ')})\nsecret ${SECRET_NOTE}: ${r.secret}`,
  list: (rows: PublicSubscription[]) => table(rows, ['id', 'company', 'url', 'types', 'enabled', 'disabledReason', 'failingSince', 'description']),
  disable: (s: PublicSubscription) => `disabled webhook ${s.id}; its pending deliveries wait until it is enabled`,
  enable: (s: PublicSubscription) => `enabled webhook ${s.id}`,
  rotateSecret: (r: { subscription: PublicSubscription; secret: string }) =>
    `rotated the secret of webhook ${r.subscription.id}; the old secret also signs until ${r.subscription.previousSecretExpiresAt}\n` +
    `new secret ${SECRET_NOTE}: ${r.secret}`,
  delete: (s: PublicSubscription) => `deleted webhook ${s.id} with its deliveries`,
  ping: (r: { subscriptionId: string; event: { id: string } }) => `queued ping ${r.event.id} to webhook ${r.subscriptionId}`,
  deliveries: (rows: Deliveries) =>
    table(
      rows.map((d) => ({ ...d, lastStatus: d.log.at(-1)?.statusCode, lastError: d.log.at(-1)?.error })),
      ['id', 'subscriptionId', 'eventType', 'status', 'attempts', 'lastStatus', 'lastError', 'nextAttemptAt'],
    ),
  resend: (r: { id: string; resendOf: string }) => `queued delivery ${r.id} (resend of ${r.resendOf})`,
  recover: (r: { queued: number; since: string }) =>
    `queued ${r.queued} deliveries of the events since ${r.since} (pings are not re-delivered: send a new one with webhook ping)`,
};

export function registerWebhookCommands(program: Command): void {
  const webhook = program.command('webhook').description('manage webhook subscriptions and their deliveries');
  const action = (name: keyof typeof webhookCommands) => runCommand(webhookCommands[name], describeWebhook[name]);
  webhook
    .command('create')
    .description('subscribe a URL to events; the signing secret is printed once')
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--url <url>', 'http(s) URL receiving the POSTs')
    .option('--types <a,b|*>', 'comma-separated event types, or * for all (default *)', parseTypes)
    .option('--description <text>', 'what the subscription is for')
    .action(action('create'));
  webhook.command('list').description('list subscriptions (never their secrets)').option('--company <slug>', 'only this company').action(action('list'));
  webhook.command('disable').description('stop delivering; pending deliveries wait').argument('<id>', 'subscription id').action(action('disable'));
  webhook.command('enable').description('resume delivering, pending deliveries included').argument('<id>', 'subscription id').action(action('enable'));
  webhook
    .command('rotate-secret')
    .description('new signing secret, printed once; old and new both sign for 24 h')
    .argument('<id>', 'subscription id')
    .action(action('rotateSecret'));
  webhook.command('delete').description('delete a subscription with its delivery log').argument('<id>', 'subscription id').action(action('delete'));
  webhook
    .command('deliveries')
    .description('the delivery log, newest first, with every attempt (--json)')
    .option('--company <slug>', 'only this company')
    .option('--subscription <id>', 'only this subscription')
    .option('--event <id>', 'only this event')
    .option('--status <status>', `one of ${DELIVERY_STATUSES.join(', ')}`)
    .option('--limit <n>', 'at most this many (default 50)')
    .action(action('deliveries'));
  webhook.command('resend').description('send a delivery again, as a new delivery').argument('<deliveryId>', 'delivery id').action(action('resend'));
  webhook
    .command('recover')
    .description('re-deliver every event since a time (events are kept 30 days; pings are not re-delivered)')
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--since <time>', 'RFC 3339 time with a zone, inclusive')
    .option('--subscription <id>', 'only this subscription (default: every enabled one)')
    .action(action('recover'));
  webhook
    .command('ping')
    .description('send a ping event to this one subscription through the normal pipeline')
    .argument('<subscriptionId>', 'subscription id')
    .option('--message <text>', 'the ping message')
    .action(action('ping'));
}
