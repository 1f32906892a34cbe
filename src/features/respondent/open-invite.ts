import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database.js';
import { inviteDrafts } from '../../platform/db/schema.js';
import type { EmitDeps } from '../events/index.js';
import { formIsClosed, type FormRecord } from '../forms/index.js';
import type { InviteStatus } from '../invites/index.js';
import { findInviteByToken, formClosed, inviteGone, isGone, type RespondentCompany } from './find-invite.js';
import { stampStage } from './invite-stage.js';
import { isLinkPreview } from './link-preview.js';
import { publicForm, type PublicForm } from './public-form.js';

/**
 * What reached the link. `fetch`: a GET or HEAD of the page, which mail scanners and link checkers
 * also send with ordinary browser agents; `person`: a sign that the page reached someone (its
 * script's report of a visible page and an interaction, a POSTed section, the JSON API's GET of a
 * client that renders the form itself).
 */
export interface Opener {
  sign: 'fetch' | 'person';
  userAgent?: string;
}

export interface OpenInviteInput {
  token: string;
  opener: Opener;
}

/** Only a person's sign opens an invite, and never from a link-preview fetcher (docs/contract.md, "Opens"). */
const countsAsOpen = (opener: Opener) => opener.sign === 'person' && !isLinkPreview(opener.userAgent);

export interface OpenedInvite {
  /** dims: as stored on the invite (canonical), for the pages' `{{dims.key}}` */
  invite: { id: string; status: InviteStatus; expiresAt: Date | null; openedAt: Date | null; dims: Record<string, string> };
  form: FormRecord;
  publicForm: PublicForm;
  company: RespondentCompany;
  respondent: { name: string | null };
  draft: { answers: Record<string, unknown>; sectionIndex: number; savedAt: Date } | null;
  /** responded: the page shows "already answered" (not an error). */
  status: 'open' | 'responded';
}

/**
 * Resolves a personal link. Unknown token: NOT_FOUND (one answer, no hint); revoked or expired:
 * INVITE_GONE; closed form: FORM_CLOSED; already answered: status responded. A person's sign marks
 * the invite opened once (invite.opened in the same transaction); a fetch of the page and
 * link-preview fetchers (WhatsApp's card, crawlers, mail scanners) never do.
 */
export async function openInvite(db: Db, deps: EmitDeps, input: OpenInviteInput): Promise<OpenedInvite> {
  const found = await findInviteByToken(db, input.token);
  const { form, company } = found;
  let invite = found.invite;
  const base = { form, publicForm: publicForm(form), company, respondent: { name: invite.name } };
  const view = () => ({ id: invite.id, status: invite.status, expiresAt: invite.expiresAt, openedAt: invite.openedAt, dims: invite.dims });
  if (invite.status === 'responded') return { ...base, invite: view(), draft: null, status: 'responded' };
  const now = deps.clock.now();
  if (isGone(invite, now)) throw inviteGone();
  if (formIsClosed(form, now)) throw formClosed();
  if (countsAsOpen(input.opener) && invite.openedAt === null) {
    const stamped = await db.transaction((tx) => stampStage(tx, deps, invite.id, 'opened'));
    if (stamped) invite = { ...invite, status: stamped.status, openedAt: now };
  }
  const [draft] = await db
    .select()
    .from(inviteDrafts)
    .where(and(eq(inviteDrafts.companyId, invite.companyId), eq(inviteDrafts.inviteId, invite.id)));
  return {
    ...base,
    invite: view(),
    draft: draft ? { answers: draft.answers, sectionIndex: draft.sectionIndex, savedAt: draft.savedAt } : null,
    status: 'open',
  };
}
