import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { quorumEnv, runQuorum } from '../scripts/topology/quorum-processes.js';
import type { TopologyState } from '../scripts/topology/state.js';
import { SmtpSink } from '../test/smtp-sink.js';

/**
 * The soak's traffic (issue 27, items 2 and 4): closed-loop clients through the balancer creating
 * invites, sending them to a local SMTP sink, answering them from the links that arrived, scanning
 * responses, reading statistics and events, while the worker delivers every event to a local
 * webhook receiver. Every request is recorded (time, operation, status, created id) for the checks.
 */

export type Operation = 'invite' | 'send' | 'open' | 'submit' | 'scan' | 'statistics' | 'events';

export interface Request {
  at: number;
  op: Operation;
  /** 0: no answer (the connection was cut, e.g. the process behind HAProxy died). */
  status: number;
  /** A 500 that says when to repeat: a database connection lost mid-request (the replica stopping under a read). */
  retryAfter?: boolean;
  /** The created invite or response; for a send, how many messages it queued. */
  id?: string;
  queued?: number;
  /** Invite ids a send named (for a send answered with no status: it may have committed). */
  inviteIds?: string[];
}

/** Event ids the receiver got (webhook-id is the event id on every attempt), with each arrival. */
export class Receiver {
  readonly arrivals = new Map<string, number>();
  private server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      this.arrivals.set(id, (this.arrivals.get(id) ?? 0) + 1);
      res.writeHead(200).end();
    });
  });
  url = '';
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  close() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The sink and receiver the topology's processes are started with. */
export async function startOutlets(): Promise<{ sink: SmtpSink; receiver: Receiver; env: Record<string, string> }> {
  const sink = new SmtpSink();
  await sink.start();
  const receiver = new Receiver();
  await receiver.start();
  return { sink, receiver, env: { SMTP_URL: sink.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'warn' } };
}

export interface Tenant {
  slug: string;
  companyId: string;
  formId: string;
  token: string;
  quota: number;
}

/** A quorum command against the topology's primary, its JSON answer (logs off: they share stdout). */
function quorumCli(state: TopologyState, args: string[]): Promise<string> {
  return runQuorum(state.source, ['--json', ...args], quorumEnv({ ...state.settings, LOG_LEVEL: 'silent' }));
}

/** A company with a form, a key, a monthly quota and a subscription to every event, made with the CLI. */
export async function prepareTenant(state: TopologyState, receiver: Receiver, slug: string, quota: number): Promise<Tenant> {
  const cli = (...args: string[]) => quorumCli(state, args);
  const company = JSON.parse(await cli('company', 'create', '--name', `Soak ${slug}`, '--slug', slug)) as { id: string };
  await cli('company', 'set', '--company', slug, '--monthly-quota', String(quota));
  const formFile = path.join(state.dir, `${slug}-form.json`);
  await fs.writeFile(formFile, JSON.stringify({ slug: `${slug}-survey`, name: 'Soak survey', sections: [{ key: 's', name: 'S', questions: [{ key: 'q', name: 'Q', type: 'TEXT' }] }] }));
  const form = JSON.parse(await cli('form', 'import', '--company', slug, formFile)) as { id: string };
  const key = JSON.parse(await cli('key', 'create', '--company', slug, '--name', 'soak', '--scopes', 'all', '--rate-limit', '1000000')) as { token: string };
  await cli('webhook', 'create', '--company', slug, '--url', receiver.url, '--types', '*');
  return { slug, companyId: company.id, formId: form.id, token: key.token, quota };
}

/** A key with `limit` requests a minute, for the shared rate-limit probe. */
export async function limitedKey(state: TopologyState, slug: string, limit: number): Promise<string> {
  const out = await quorumCli(state, ['key', 'create', '--company', slug, '--name', `limited-${Date.now()}`, '--scopes', 'all', '--rate-limit', String(limit)]);
  return (JSON.parse(out) as { token: string }).token;
}

/** `limit + extra` requests at once through the balancer with a key of `limit`: how many were admitted. */
export async function rateLimitProbe(balancerUrl: string, token: string, limit: number, extra: number): Promise<{ admitted: number; limited: number; other: number[] }> {
  const statuses = await Promise.all(
    Array.from({ length: limit + extra }, async () => (await fetch(`${balancerUrl}/v1/events?limit=1`, { headers: { authorization: `Bearer ${token}` } }).catch(() => null))?.status ?? 0),
  );
  return { admitted: statuses.filter((s) => s === 200).length, limited: statuses.filter((s) => s === 429).length, other: statuses.filter((s) => s !== 200 && s !== 429) };
}

/** The token of an invite's personal link, from the message that arrived at the sink. */
export function linkTokens(sink: SmtpSink): string[] {
  return sink.received.map((mail) => /\/i\/([A-Za-z0-9_-]{10,})/.exec(`${mail.text ?? ''} ${mail.html || ''}`)?.[1]).filter((t): t is string => Boolean(t));
}

export interface Mix {
  requests: Request[];
  /** Runs `clients` loops until `until` (Date.now()); resolves when all have finished their last request. */
  run(clients: number, until: number): Promise<void>;
}

/**
 * The weighted mix. Each client creates invites and sends each five it created in one send; the
 * respondents answer links that arrived at the sink, each link once, each from its own address.
 */
export function trafficMix(balancerUrl: string, tenant: Tenant, sink: SmtpSink): Mix {
  const requests: Request[] = [];
  const answered = new Set<string>();
  let serial = 0;
  const auth = { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' };

  async function call(op: Operation, url: string, init: RequestInit = {}, extra: Partial<Request> = {}): Promise<{ status: number; body: any }> {
    const at = Date.now();
    const headers = { ...(url.startsWith('/v1/') ? auth : { 'content-type': 'application/json' }), ...(init.headers as Record<string, string>) };
    const res = await fetch(`${balancerUrl}${url}`, { ...init, headers }).catch(() => null);
    const text = res ? await res.text().catch(() => null) : null;
    const status = res && text !== null ? res.status : 0;
    const body = status ? safeJson(text!) : null;
    const retryAfter = status >= 500 && res!.headers.has('retry-after') ? { retryAfter: true } : {};
    requests.push({ at, op, status, ...retryAfter, ...extra, ...pickIds(op, status, body) });
    return { status, body };
  }

  async function submit(): Promise<boolean> {
    const token = linkTokens(sink).find((t) => !answered.has(t));
    if (!token) return false;
    answered.add(token);
    // Respondents come from many addresses (HAProxy appends the real peer; TRUST_PROXY trusts it).
    const headers = { 'x-forwarded-for': `10.77.${(answered.size >> 8) & 255}.${answered.size & 255}` };
    const opened = await call('open', `/r/v1/invites/${token}`, { headers });
    const questionId = findQuestionId(opened.body);
    if (!questionId) return true;
    await call('submit', `/r/v1/invites/${token}/submit`, { method: 'POST', headers, body: JSON.stringify({ answers: { [questionId]: 'fine' } }) });
    return true;
  }

  async function scan() {
    let url = `/v1/forms/${tenant.formId}/responses?limit=50`;
    for (let page = 0; page < 3; page++) {
      const { status, body } = await call('scan', url);
      const next = status === 200 ? (body?.meta?.nextCursor as string | null) : null;
      if (!next) return;
      url = `/v1/forms/${tenant.formId}/responses?limit=50&cursor=${encodeURIComponent(next)}`;
    }
  }

  async function client(until: number) {
    const unsent: string[] = [];
    for (let turn = 0; Date.now() < until; turn++) {
      const pick = turn % 10;
      if (pick < 4) {
        const { status, body } = await call('invite', `/v1/forms/${tenant.formId}/invites`, {
          method: 'POST',
          body: JSON.stringify({ email: `soak${serial++}-${process.pid}@soak.test`, name: 'Soak Respondent' }),
        });
        if (status === 201) unsent.push(body.data.id as string);
        if (unsent.length >= 5) {
          const inviteIds = unsent.splice(0);
          await call('send', `/v1/forms/${tenant.formId}/invites/send`, { method: 'POST', body: JSON.stringify({ channel: 'email', inviteIds }) }, { inviteIds });
        }
      } else if (pick < 7) {
        if (!(await submit())) await call('events', '/v1/events?limit=20');
      } else if (pick === 7) await scan();
      else if (pick === 8) await call('statistics', `/v1/forms/${tenant.formId}/statistics`);
      else await call('events', '/v1/events?limit=20');
    }
  }

  return {
    requests,
    run: async (clients, until) => {
      await Promise.all(Array.from({ length: clients }, () => client(until)));
    },
  };
}

function safeJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function pickIds(op: Operation, status: number, body: any): Partial<Request> {
  if (op === 'invite' && status === 201) return { id: body.data.id };
  if (op === 'submit' && status === 201) return { id: body.data.responseId };
  if (op === 'send' && status === 200) return { queued: body.data.queued };
  return {};
}

/** The id of the form's one question (its only TEXT one), wherever the respondent API puts it. */
export function findQuestionId(value: unknown): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (record.type === 'TEXT' && typeof record.id === 'string') return record.id;
  for (const child of Object.values(record)) {
    const found = findQuestionId(child);
    if (found) return found;
  }
  return undefined;
}
