import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../../test/harness.js';
import { createSurvey } from '../../../../test/responses.js';
import { applyReceipt } from '../../callbacks/apply-receipt.js';
import type { ClaimedMessage } from '../../messaging/claim-messages.js';
import { recordMessages, type MessageResult } from '../../messaging/record-messages.js';
import { stampStage, type RespondentStage } from '../../respondent/invite-stage.js';
import { expireInvites } from '../expire-invites.js';
import { revokeInvite } from '../revoke-invite.js';
import { INVITE_STATUSES, type InviteStatus } from '../schemas.js';
import { FINAL_STATUSES, INVITE_TRANSITIONS } from './transitions.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Every stored status, `queued` included (rows an earlier version stored so keep it). */
const STATUSES = INVITE_STATUSES;

/** The record step's failure (for good, or a suppression met at its turn): only created and queued move; every invite gets its event. */
const recordedFailure = (reason: string): Record<InviteStatus, string> => ({
  created: `failed invite.failed/${reason}`, queued: `failed invite.failed/${reason}`, sent: `sent invite.failed/${reason}`,
  delivered: `delivered invite.failed/${reason}`, opened: `opened invite.failed/${reason}`, started: `started invite.failed/${reason}`,
  responded: `responded invite.failed/${reason}`, failed: `failed invite.failed/${reason}`, revoked: `revoked invite.failed/${reason}`,
  expired: `expired invite.failed/${reason}`,
});

/** A failure receipt (bounce or failure): up to delivered moves, with its event; the rest is left alone. */
const failureReceipt = (reason: string): Record<InviteStatus, string> => ({
  created: `failed invite.failed/${reason}`, queued: `failed invite.failed/${reason}`, sent: `failed invite.failed/${reason}`,
  delivered: `failed invite.failed/${reason}`, opened: 'opened -', started: 'started -', responded: 'responded -', failed: 'failed -',
  revoked: 'revoked -', expired: 'expired -',
});

/**
 * What each caller does to an invite stored in each status: the status after, and the event it
 * emitted ('-': none; 'error CODE': refused). Written out by hand from the behaviour before the
 * lifecycle module existed, so the module is held to it.
 */
const MATRIX: Record<string, Record<InviteStatus, string>> = {
  'record: sent': {
    created: 'sent invite.sent', queued: 'sent invite.sent', sent: 'sent invite.sent', delivered: 'delivered invite.sent',
    opened: 'opened invite.sent', started: 'started invite.sent', responded: 'responded invite.sent', failed: 'sent invite.sent',
    revoked: 'revoked invite.sent', expired: 'expired invite.sent',
  },
  'record: failed for good': recordedFailure('send_failed'),
  'record: blocked by a suppression': recordedFailure('suppressed'),
  'receipt: delivered': {
    created: 'delivered invite.delivered', queued: 'delivered invite.delivered', sent: 'delivered invite.delivered', delivered: 'delivered -',
    opened: 'opened -', started: 'started -', responded: 'responded -', failed: 'failed -', revoked: 'revoked -', expired: 'expired -',
  },
  'receipt: bounced': failureReceipt('bounced'),
  'receipt: failed': failureReceipt('send_failed'),
  revoke: {
    created: 'revoked invite.revoked', queued: 'revoked invite.revoked', sent: 'revoked invite.revoked', delivered: 'revoked invite.revoked',
    opened: 'revoked invite.revoked', started: 'revoked invite.revoked', responded: 'responded error ALREADY_RESPONDED', failed: 'revoked invite.revoked',
    revoked: 'revoked -', expired: 'revoked invite.revoked',
  },
  'expiry sweep': {
    created: 'expired invite.expired', queued: 'expired invite.expired', sent: 'expired invite.expired', delivered: 'expired invite.expired',
    opened: 'expired invite.expired', started: 'expired invite.expired', responded: 'responded -', failed: 'expired invite.expired',
    revoked: 'revoked -', expired: 'expired -',
  },
  'respondent: opened': {
    created: 'opened invite.opened', queued: 'opened invite.opened', sent: 'opened invite.opened', delivered: 'opened invite.opened',
    opened: 'opened invite.opened', started: 'started invite.opened', responded: 'responded -', failed: 'opened invite.opened',
    revoked: 'revoked -', expired: 'expired -',
  },
  'respondent: started': {
    created: 'started invite.started', queued: 'started invite.started', sent: 'started invite.started', delivered: 'started invite.started',
    opened: 'started invite.started', started: 'started invite.started', responded: 'responded -', failed: 'started invite.started',
    revoked: 'revoked -', expired: 'expired -',
  },
  'respondent: responded': {
    created: 'responded invite.responded', queued: 'responded invite.responded', sent: 'responded invite.responded',
    delivered: 'responded invite.responded', opened: 'responded invite.responded', started: 'responded invite.responded',
    responded: 'responded -', failed: 'responded invite.responded', revoked: 'revoked -', expired: 'expired -',
  },
};

type Invite = { id: string; status: InviteStatus; messageId: string; providerMessageId: string; formName: string };
type Action = (invite: Invite, companyId: string) => Promise<void>;

/** A pending message held by attempt 1, as the outbound loop's claim leaves it. */
const held = (invite: Invite) => ({ id: invite.messageId, attempt: 1 }) as ClaimedMessage;
const record = (result: MessageResult): Action => async (invite) => recordMessages(t.ctx, [{ item: held(invite), result }]);
const receipt = (outcome: 'delivered' | 'bounced' | 'failed'): Action => async (invite) => {
  await applyReceipt(t.ctx.db, t.ctx, { channel: 'email', providerMessageId: invite.providerMessageId, outcome });
};
const stage = (name: RespondentStage): Action => async (invite) => {
  await t.ctx.db.transaction((tx) => stampStage(tx, t.ctx, invite.id, name));
};

const ACTIONS: Record<keyof typeof MATRIX, Action> = {
  'record: sent': async (invite) => recordMessages(t.ctx, [{ item: held(invite), result: { outcome: 'sent', providerMessageId: `accepted-${invite.id}` } }]),
  'record: failed for good': record({ outcome: 'failed', transient: false, error: '550 no such user' }),
  'record: blocked by a suppression': record({ outcome: 'blocked', reason: 'suppressed' }),
  'receipt: delivered': receipt('delivered'),
  'receipt: bounced': receipt('bounced'),
  'receipt: failed': receipt('failed'),
  revoke: async (invite, companyId) => {
    await revokeInvite(t.ctx.db, t.ctx, { companyId, inviteId: invite.id });
  },
  'expiry sweep': async () => {
    await expireInvites(t.ctx.db, t.ctx);
  },
  'respondent: opened': stage('opened'),
  'respondent: started': stage('started'),
  'respondent: responded': stage('responded'),
};

/** One e-mail invite stored in each status, each with a pending message held by attempt 1 and a provider id. */
async function invitesInEveryStatus(expiresAt: Date | null) {
  const { company } = await t.tenant();
  const survey = await createSurvey(t, company.id);
  const now = t.clock.now();
  const batch = t.ctx.newId();
  await t.ctx.db.execute(sql`INSERT INTO invite_batches (id, company_id, form_id, kind, channel, created_at) VALUES (${batch}, ${company.id}, ${survey.form.id}, 'send', 'email', ${now})`);
  const invites: Invite[] = [];
  for (const status of STATUSES) {
    const invite = { id: t.ctx.newId(), status, messageId: t.ctx.newId(), providerMessageId: `<${status}-${batch}@quorum.test>`, formName: survey.form.name };
    await t.ctx.db.execute(sql`
      INSERT INTO invites (id, company_id, form_id, token, email, status, expires_at, status_changed_at, created_at)
      VALUES (${invite.id}, ${company.id}, ${survey.form.id}, ${`${status}-token-of-${invite.id}`}, ${`${status}@school.edu`}, ${status}, ${expiresAt}, ${now}, ${now})`);
    await t.ctx.db.execute(sql`
      INSERT INTO invite_messages (id, company_id, invite_id, batch_id, channel, due_at, attempts, provider_message_id, quota_period, created_at)
      VALUES (${invite.messageId}, ${company.id}, ${invite.id}, ${batch}, 'email', ${now}, 1, ${invite.providerMessageId.slice(1, -1)}, '2026-03', ${now})`);
    invites.push(invite);
  }
  return { companyId: company.id, invites };
}

async function outcome(companyId: string, invite: Invite): Promise<string> {
  const { rows: stored } = await t.ctx.db.execute<{ status: string }>(sql`SELECT status FROM invites WHERE id = ${invite.id}`);
  const { rows: events } = await t.ctx.db.execute<{ type: string; failReason: string | null }>(
    sql`SELECT type, data->>'failReason' AS "failReason" FROM events WHERE company_id = ${companyId} AND data->>'inviteId' = ${invite.id} ORDER BY id`,
  );
  const emitted = events.map((e) => (e.failReason ? `${e.type}/${e.failReason}` : e.type)).join(',') || '-';
  return `${stored[0].status} ${emitted}`;
}

describe('the invite lifecycle, caller by caller and status by status', () => {
  it.each(Object.keys(MATRIX))('%s', async (name) => {
    const expired = name === 'expiry sweep';
    const { companyId, invites } = await invitesInEveryStatus(expired ? t.clock.now() : null);
    const seen: Record<string, string> = {};
    for (const invite of invites) {
      try {
        await ACTIONS[name](invite, companyId);
        seen[invite.status] = await outcome(companyId, invite);
      } catch (err) {
        seen[invite.status] = `${invite.status} error ${(err as { code?: string }).code}`;
      }
    }
    expect(seen).toEqual(MATRIX[name]);
  });
});

describe('INVITE_TRANSITIONS', () => {
  it('moves exactly the statuses the matrix shows moving to each target', () => {
    const moves: Record<string, keyof typeof INVITE_TRANSITIONS> = {
      'record: sent': 'sent', 'record: failed for good': 'sendFailed', 'receipt: delivered': 'delivered', 'receipt: bounced': 'receiptFailed',
      revoke: 'revoked', 'expiry sweep': 'expired', 'respondent: opened': 'opened', 'respondent: started': 'started', 'respondent: responded': 'responded',
    };
    for (const [name, move] of Object.entries(moves)) {
      const { to, from } = INVITE_TRANSITIONS[move];
      const moved = STATUSES.filter((status) => status !== to && MATRIX[name][status].startsWith(`${to} `));
      expect([...from].filter((status) => status !== to).sort(), name).toEqual(moved.sort());
    }
  });

  it('leaves a final status only to revoke an expired invite', () => {
    for (const [move, { from }] of Object.entries(INVITE_TRANSITIONS)) {
      expect(from.filter((status) => FINAL_STATUSES.includes(status)), move).toEqual(move === 'revoked' ? ['expired'] : []);
    }
  });
});
