import type { Db } from '../../platform/db/database.js';
import { htmlEscaping } from '../../lib/html.js';
import { recordAudit } from '../audit/index.js';
import { listUserMemberships } from '../memberships/index.js';
import { sendMail, type SendMailDeps } from '../messaging/index.js';
import { issueLink, linkUrl } from './one-time-link.js';
import { findUserByEmail } from './sign-in.js';
import type { Config } from '../../platform/config.js';
import { spendResetBudget, type BudgetDeps } from './sign-in-budget.js';

export type LinkMailDeps = SendMailDeps & { config: SendMailDeps['config'] & Pick<Config, 'publicPanelUrl'> };
export type ResetDeps = LinkMailDeps & BudgetDeps;

const escape = htmlEscaping.escape;

/** The set-password mail: the link, what it is for, and how long it lasts. Every value is HTML-escaped. */
export function setPasswordMail(input: { name: string; url: string; reason: 'reset' | 'welcome' }) {
  const lead =
    input.reason === 'reset'
      ? 'Someone (hopefully you) asked to reset the password of your Quorum panel account.'
      : 'An account on the Quorum panel was created for you.';
  const closing = input.reason === 'reset' ? 'If you did not ask for it, ignore this message: your password stays as it is.' : '';
  return {
    subject: input.reason === 'reset' ? 'Reset your Quorum password' : 'Set your Quorum password',
    text: [`Hello ${input.name},`, '', lead, 'Choose a password here (the link works once, for 30 minutes):', input.url, '', closing].join('\n').trim(),
    html: [
      `<p>Hello ${escape(input.name)},</p>`,
      `<p>${escape(lead)}</p>`,
      `<p><a href="${escape(input.url)}">Choose a password</a> (the link works once, for 30 minutes).</p>`,
      closing ? `<p>${escape(closing)}</p>` : '',
    ].join('\n'),
  };
}

/**
 * Takes a reset request: counts it against the client address's and the typed address's budgets
 * (429 past either) and returns at once, with the lookup and the mail still under way in `delivery`,
 * so the time of the answer tells no one whether the address has an account.
 */
export async function requestPasswordReset(db: Db, deps: ResetDeps, input: { email: string; ip: string | null }): Promise<{ delivery: Promise<{ mailed: boolean }> }> {
  await spendResetBudget(deps, input);
  return { delivery: mailResetLink(db, deps, input) };
}

/** Mails a set-password link to the account of an address, when there is one. */
async function mailResetLink(db: Db, deps: ResetDeps, input: { email: string; ip: string | null }): Promise<{ mailed: boolean }> {
  const user = await findUserByEmail(db, input.email);
  if (!user) return { mailed: false };
  const { token, link } = await db.transaction(async (tx) => {
    const issued = await issueLink(tx, deps, { purpose: 'set_password', userId: user.id, details: { reason: 'reset' } });
    const [home] = await listUserMemberships(tx, deps, { userId: user.id });
    await recordAudit(tx, deps, {
      companyId: home?.companyId ?? null,
      actor: { userId: user.id, email: user.email },
      action: 'password.reset_requested',
      details: { linkId: issued.link.id },
      ip: input.ip,
    });
    return issued;
  });
  const mail = setPasswordMail({ name: user.name, url: linkUrl(deps.config.publicPanelUrl, link.purpose, token), reason: 'reset' });
  await sendMail(db, deps, { to: user.email, ...mail });
  return { mailed: true };
}
