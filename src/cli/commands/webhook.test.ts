import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliRuntime, runQuorum } from '../../../test/cli.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { emit, goalData } from '../../../test/webhooks.js';
import { describeError } from '../output.js';
import type { CliRuntime } from '../runtime.js';
import { describeWebhook, webhookCommands as run } from './webhook.js';

let t: TestApp;
let rt: CliRuntime;
let slug: string;
beforeAll(async () => {
  t = await startTestApp();
  rt = cliRuntime(t);
  slug = (await t.company()).slug;
});
afterAll(async () => t?.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => describeError(err).message,
  );

const create = (opts: Record<string, unknown>) => run.create(rt, { args: [], opts: { company: slug, url: 'https://hooks.example.com/q', ...opts } });

describe('quorum webhook commands', () => {
  it('create prints the secret once; list never shows it', async () => {
    const created = await create({ types: ['invite.sent', 'invite.failed'], description: 'CRM' });
    expect(describeWebhook.create(created)).toBe(
      `created webhook ${created.subscription.id} -> https://hooks.example.com/q (invite.sent, invite.failed)\n` +
        `secret (shown once, store it now; receivers verify with it): ${created.secret}`,
    );
    const listed = await run.list(rt, { args: [], opts: { company: slug } });
    expect(listed).toEqual([{ company: slug, ...created.subscription }]);
    expect(describeWebhook.list(listed)).toMatch(new RegExp(`^id\\s+company\\s+url\\s+types\\s+enabled.*\\n\\S+\\s+${slug}\\s`));
    expect(JSON.stringify(await run.list(rt, { args: [], opts: {} }))).not.toContain(created.secret);
  });

  it('create validates the URL and the types against the catalog', async () => {
    const message = await failure(create({ url: 'ftp://x.example/', types: ['invite.bounced'] }));
    expect(message).toContain('url: The URL must use http or https.');
    expect(message).toContain('types[0]: "invite.bounced" is not an event type');
    expect(await failure(run.create(rt, { args: [], opts: { company: 'nope', url: 'https://a.example/' } }))).toBe('no company with slug "nope" (see: quorum company list)');
  });

  it('disable, enable, rotate-secret and delete take the id alone', async () => {
    const { subscription } = await create({});
    const id = subscription.id;
    expect(describeWebhook.disable(await run.disable(rt, { args: [id], opts: {} }))).toBe(`disabled webhook ${id}; its pending deliveries wait until it is enabled`);
    expect(await run.enable(rt, { args: [id], opts: {} })).toMatchObject({ enabled: true });
    const rotated = await run.rotateSecret(rt, { args: [id], opts: {} });
    expect(describeWebhook.rotateSecret(rotated)).toContain(`new secret (shown once, store it now; receivers verify with it): ${rotated.secret}`);
    expect(describeWebhook.delete(await run.delete(rt, { args: [id], opts: {} }))).toBe(`deleted webhook ${id} with its deliveries`);
    expect(await failure(run.enable(rt, { args: [id], opts: {} }))).toBe('Webhook subscription not found.');
    expect(await failure(run.disable(rt, { args: ['not-an-id'], opts: {} }))).toBe('Webhook subscription not found.');
  });

  it('ping, deliveries, resend and recover', async () => {
    const company = await t.company();
    const { subscription } = await run.create(rt, { args: [], opts: { company: company.slug, url: 'http://127.0.0.1:9/hook', types: ['ping', 'form.goal_reached'] } });
    const pinged = await run.ping(rt, { args: [subscription.id], opts: { message: 'from the CLI' } });
    expect(describeWebhook.ping(pinged)).toBe(`queued ping ${pinged.event.id} to webhook ${subscription.id}`);

    const deliveries = await run.deliveries(rt, { args: [], opts: { company: company.slug, status: 'pending' } });
    expect(deliveries).toMatchObject([{ subscriptionId: subscription.id, eventId: pinged.event.id, eventType: 'ping', status: 'pending', log: [] }]);
    expect(describeWebhook.deliveries(deliveries)).toMatch(/^id\s+subscriptionId\s+eventType\s+status\s+attempts\s+lastStatus/);
    expect(await failure(run.deliveries(rt, { args: [], opts: { status: 'lost', limit: 'x' } }))).toContain('status: must be one of pending, succeeded, failed');

    const resent = await run.resend(rt, { args: [deliveries[0].id], opts: {} });
    expect(describeWebhook.resend(resent)).toBe(`queued delivery ${resent.id} (resend of ${deliveries[0].id})`);

    t.clock.advance(1000);
    await emit(t, company.id, 'form.goal_reached', goalData());
    const recovered = await run.recover(rt, { args: [], opts: { company: company.slug, since: '2020-01-01T00:00:00Z' } });
    expect(describeWebhook.recover(recovered)).toBe(
      'queued 1 deliveries of the events since 2020-01-01T00:00:00.000Z (pings are not re-delivered: send a new one with webhook ping)',
    );
    expect(await failure(run.recover(rt, { args: [], opts: { company: company.slug, since: 'yesterday' } }))).toContain('since: must be a valid time');
  });
});

describe('quorum webhook (process)', () => {
  it('is registered, prints --json and exits non-zero with a clear message on bad input', { timeout: 120_000 }, async () => {
    const env = { DATABASE_URL: t.databaseUrl, QUORUM_DATA_DIR: mkdtempSync(join(tmpdir(), 'quorum-cli-')), SECRET_KEY: t.ctx.config.secretKey };
    const quorum = (args: string[]) => runQuorum(args, env);
    const created = await quorum(['--json', 'webhook', 'create', '--company', slug, '--url', 'https://hooks.example.com/p', '--types', '*']);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ subscription: { types: ['*'] }, secret: expect.stringMatching(/^whsec_/) });

    const bad = await quorum(['--json', 'webhook', 'create', '--company', slug, '--url', 'not a url']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(''); // --json: the error object only
    expect(JSON.parse(bad.stdout).error.message).toContain('url: The URL is not a valid absolute URL.');
    expect(JSON.parse(bad.stdout).error.details.fields[0]).toMatchObject({ path: 'url', code: 'invalid_format' });
  });
});
