import { sql, type SQL } from 'drizzle-orm';
import { noDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { uuidv7SqlAt } from '../../platform/db/uuidv7-sql.js';
import type { Clock } from '../../lib/clock.js';
import { ApiError, notFound, validationError, type FieldError } from '../../lib/errors.js';
import { isUuid, type IdGenerator } from '../../lib/ids.js';
import { parseInstant } from '../../lib/date-time.js';
import { sqlArray } from '../../lib/sql-array.js';
import { readCompanySettings } from '../companies/index.js';
import { findForm, type FormRecord } from '../forms/index.js';
import { DEFAULT_GATEWAY_TEXT, findWhatsappChannel, formEmailTemplate, formReminderTemplate, MESSAGES_CHANNEL, type MessagePurpose } from '../message-channels/index.js';
import { templateFieldErrors, templateVariables, type TemplateVariables } from '../../lib/template-variables.js';
import { wakeSleepers } from '../../platform/outbound/index.js';
import { inviteStatusIn } from './invite-view.js';
import { quotaExceeded, quotaPeriod, quotaStatus, reservationSql, type QuotaStatus } from '../companies/index.js';
import type { SendInvitesInput, SkipReason, TemplateInput } from './schemas.js';

export interface SendResultData {
  batchId: string;
  queued: number;
  skipped: { id: string; reason: SkipReason }[];
}

/** What a send would do (dryRun): the same selection and skips, and the quota it needs against what is left. */
export interface SendDryRunData {
  dryRun: true;
  queued: number;
  skipped: { id: string; reason: SkipReason }[];
  quota: QuotaStatus & { left: number; requested: number; fits: boolean };
}

const CONTACT_COLUMN = { name: 'name', email: 'email', phone: 'phone', externalId: 'external_id', expiresAt: 'expires_at' } as const;

function selectionErrors(input: SendInvitesInput): FieldError[] {
  const errors: FieldError[] = (input.inviteIds ?? [])
    .map((id, index) => ({ id, index }))
    .filter(({ id }) => !isUuid(id))
    .map(({ index }) => ({ path: `inviteIds.${index}`, code: 'invalid_format' as const, message: 'Not an invite id.' }));
  if (input.batchId !== undefined && !isUuid(input.batchId)) errors.push({ path: 'batchId', code: 'invalid_format', message: 'Not a batch id.' });
  return errors;
}

/** The templates of the channel, checked: the form's e-mail template (or its reminder's), or the WhatsApp channel's. */
async function channelTemplates(db: DbOrTx, companyId: string, form: FormRecord, input: SendInput): Promise<{ texts: string[]; path: string; template: TemplateInput | null }> {
  if (input.channel === 'email') {
    const email = input.purpose === 'reminder' ? formReminderTemplate(form) : formEmailTemplate(form);
    return { texts: [email.subject, email.body], path: input.purpose === 'reminder' ? 'reminder' : 'email', template: null };
  }
  const channel = await findWhatsappChannel(db, noDeps, { companyId });
  if (!channel) throw new ApiError('CHANNEL_NOT_CONFIGURED', 'The WhatsApp channel is not configured for this company.');
  if (channel.provider === 'gateway') return { texts: [channel.settings.text ?? DEFAULT_GATEWAY_TEXT], path: 'text', template: input.template ?? null };
  const template = input.template;
  if (!template || !(channel.settings.templates ?? []).includes(template.name)) {
    throw new ApiError('TEMPLATE_REQUIRED', 'The WhatsApp Cloud API sends only approved templates: pass template { name, language, variables } with an approved name.', {
      approved: channel.settings.templates ?? [],
    });
  }
  return { texts: Object.values(template.variables ?? {}), path: 'template.variables', template };
}

/** The skip reason of each selected invite, first match wins; null: eligible. */
function skipReasonSql(channel: 'email' | 'whatsapp', vars: TemplateVariables, now: Date): SQL {
  const contact = channel === 'email' ? sql.raw('i.email') : sql.raw('i.phone');
  const missing = [
    ...vars.required.map((name) => sql`i.${sql.raw(CONTACT_COLUMN[name])} IS NULL`),
    ...vars.requiredDims.map((key) => sql`NOT (i.dims ? ${key})`),
  ];
  return sql`CASE
    WHEN i.status = 'revoked' THEN 'revoked'
    WHEN i.status = 'responded' THEN 'responded'
    WHEN i.status = 'expired' OR i.expires_at <= ${now} THEN 'expired'
    WHEN ${contact} IS NULL THEN ${channel === 'email' ? 'no_email' : 'no_phone'}
    WHEN EXISTS (SELECT 1 FROM suppressions s WHERE s.company_id = i.company_id AND s.address = ${contact}) THEN 'suppressed'
    ${missing.length > 0 ? sql`WHEN ${sql.join(missing, sql` OR `)} THEN 'missing_var'` : sql``}
  END`;
}

function selectionSql(companyId: string, input: SendInvitesInput): SQL {
  const conditions: SQL[] = [];
  if (input.inviteIds) conditions.push(sql`i.id = ANY(${sqlArray('uuid', input.inviteIds)})`);
  if (input.batchId) {
    conditions.push(sql`(i.batch_id = ${input.batchId}
      OR i.id IN (SELECT invite_id FROM invite_messages WHERE company_id = ${companyId} AND batch_id = ${input.batchId}))`);
  }
  if (input.filter) conditions.push(inviteStatusIn(input.filter.statuses));
  return conditions.length > 0 ? sql` AND ${sql.join(conditions, sql` AND `)}` : sql``;
}

/**
 * A send call in one statement: selection and skips, the quota for every queued message as one
 * conditional upsert, and, only if it fits, the messages. If the reservation does not fit,
 * nothing is queued (QUOTA_EXCEEDED). Each queued message is a row of invite_messages due at
 * scheduleAt (or now); the outbound loop sends it. The invites are not written: a created or
 * failed invite with a pending message is queued (INVITE_STATUS), and the message carries the
 * channel and batch of the send. With dryRun, the same checks and selection answer what the send
 * would do, and nothing is written.
 */
/** The selected invites of the form with their skip reason (null: eligible), as the body of a CTE. */
function selectedSql(companyId: string, formId: string, input: SendInvitesInput, vars: TemplateVariables, now: Date): SQL {
  return sql`SELECT i.id, ${skipReasonSql(input.channel, vars, now)} AS reason
      FROM invites i
     WHERE i.company_id = ${companyId} AND i.form_id = ${formId}${selectionSql(companyId, input)}`;
}

/** A dry run: one read of the selection and the month's quota; nothing is written, queued or emitted. */
async function dryRunSend(db: DbOrTx, input: { companyId: string; selected: SQL; monthlyQuota: number; period: string }): Promise<SendDryRunData> {
  const { rows } = await db.execute<{ id: string; reason: string | null }>(sql`SELECT id::text, reason FROM (${input.selected}) sel`);
  const requested = rows.filter((row) => row.reason === null).length;
  const status = await quotaStatus(db, noDeps, { companyId: input.companyId, limit: input.monthlyQuota, period: input.period });
  const left = Math.max(0, status.limit - status.used - status.reserved);
  const skipped = rows.filter((row) => row.reason !== null).map((row) => ({ id: row.id, reason: row.reason as SkipReason }));
  return { dryRun: true, queued: requested, skipped, quota: { ...status, left, requested, fits: requested <= left } };
}

/** A send as the route asks it, or as the reminder sweep does: `purpose` picks the form's template its messages render. */
type SendInput = SendInvitesInput & { purpose?: MessagePurpose };

export function sendInvites(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; formId: string } & SendInput & { dryRun: true }): Promise<SendDryRunData>;
export function sendInvites(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; formId: string } & SendInput & { dryRun?: false }): Promise<SendResultData>;
export function sendInvites(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; formId: string } & SendInput): Promise<SendResultData | SendDryRunData>;
export async function sendInvites(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; formId: string } & SendInput): Promise<SendResultData | SendDryRunData> {
  const { companyId, formId } = input;
  const form = await findForm(db, deps, { companyId, id: formId });
  if (!form) throw notFound('Form');
  const errors = selectionErrors(input);
  const { texts, path, template } = await channelTemplates(db, companyId, form, input);
  const vars = templateVariables(texts);
  errors.push(...templateFieldErrors(vars, path));
  if (errors.length > 0) throw validationError(errors);

  const now = deps.clock.now();
  // The route's schema has read it with the same parser; null only when absent.
  const scheduleAt = input.scheduleAt ? parseInstant(input.scheduleAt) : null;
  const dueAt = scheduleAt && scheduleAt > now ? scheduleAt : now;
  const period = quotaPeriod(now);
  const { monthlyQuota } = await readCompanySettings(db, deps, { companyId });
  const selected = selectedSql(companyId, form.id, input, vars, now);
  if (input.dryRun) return dryRunSend(db, { companyId, selected, monthlyQuota, period });
  const batchId = deps.newId();

  return db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO invite_batches (id, company_id, form_id, kind, channel, created_at)
      VALUES (${batchId}, ${companyId}, ${form.id}, 'send', ${input.channel}, ${now})`);
    const { rows } = await tx.execute<{ id: string | null; reason: string | null; requested: number | null; fits: boolean | null }>(sql`
      WITH sel AS (${selected}
      ), requested AS (
        SELECT count(*)::int AS n FROM sel WHERE reason IS NULL
      ), reserved AS (${reservationSql(companyId, monthlyQuota, period, sql`SELECT n FROM requested`)}
      ), ins AS (
        INSERT INTO invite_messages (id, company_id, invite_id, batch_id, channel, template, due_at, quota_period, created_at, purpose)
        SELECT ${uuidv7SqlAt(now)}, ${companyId}, sel.id, ${batchId}, ${input.channel}, ${template ? JSON.stringify(template) : null}::jsonb,
               ${dueAt}, ${period}, ${now}, ${input.purpose ?? 'invitation'}
          FROM sel WHERE sel.reason IS NULL AND EXISTS (SELECT FROM reserved)
      )
      SELECT id::text, reason, NULL::int AS requested, NULL::boolean AS fits, NULL::void AS woken FROM sel WHERE reason IS NOT NULL
      -- Wakes the sleeping message loops at commit (awake ones claim on their own); a scheduled
      -- send is found by their poll when due.
      UNION ALL SELECT NULL, NULL, n, EXISTS (SELECT FROM reserved), ${wakeSleepers(MESSAGES_CHANNEL, sql`EXISTS (SELECT FROM reserved) AND ${dueAt === now}`)}
        FROM requested`);
    const { requested, fits } = rows.find((row) => row.id === null)!;
    if (requested! > 0 && !fits) throw await quotaExceeded(tx, companyId, monthlyQuota, period, requested!);
    const skipped = rows.filter((row) => row.id !== null).map((row) => ({ id: row.id!, reason: row.reason as SkipReason }));
    return { batchId, queued: requested!, skipped };
  });
}
