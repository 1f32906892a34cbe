import type { Tx } from '../../platform/db/database.js';
import { responses } from '../../platform/db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { respondentData, type OrgSource, type RespondentInput } from '../events/index.js';
import type { Answers, PresentedOrder } from '../forms/index.js';
import { validateAnswers } from '../forms/index.js';
import type { FormRecord } from '../forms/index.js';
import type { ResponseHandler } from './response-consumer.js';
import type { EventConsumer } from '../events/index.js';

export interface RecordResponseInput {
  /** The answered form as read by findForm: the response belongs to its company. */
  form: Pick<FormRecord, 'id' | 'companyId' | 'content'>;
  /** Keyed by question id; checked against the form (types, visibility, mandatory questions). */
  answers: Answers;
  /** Canonical values (dims/canonical-dims.ts: entity ids, decimal text, YYYY-MM-DD) of declared dims. */
  dims?: Record<string, string>;
  respondent?: RespondentInput | null;
  inviteId?: string | null;
  org?: { unitId: string; path: string; source: OrgSource } | null;
  /** The order the respondent's pages showed the shuffled sections in (presented-order.ts in respondent). */
  presentedOrder?: PresentedOrder | null;
  /** When it was finalized; defaults to now. null when unknown (an import without that time). */
  completedAt?: Date | null;
}

function undeclaredDimErrors(form: RecordResponseInput['form'], dims: Record<string, string>): FieldError[] {
  const declared = new Set(form.content.dims.map((dim) => dim.key));
  return Object.keys(dims)
    .filter((key) => !declared.has(key))
    .map((key) => ({ path: `dims.${key}`, code: 'unknown_field', message: `The form declares no dim "${key}".` }));
}

/** Both lists are required: a caller that leaves a consumer out (the demo seeder) says so by passing the shorter list. */
export interface RecordResponseDeps {
  clock: Clock;
  newId: IdGenerator;
  /** Handed to the response consumers so they can emit events in the same transaction. */
  eventConsumers: readonly EventConsumer[];
  /** Features acting on each new response in its transaction (statistics, goals, treatments): the context's list. */
  responseConsumers: readonly ResponseHandler[];
}

/**
 * Stores a finalized response, created now (the clock). The public form and the invite flow call
 * it inside their transaction; forms.response_count follows by trigger (migration 0100), then every
 * response consumer (the rollups, goals, cases) acts in the same transaction. The response.created event and the invite's move
 * to responded belong to the caller (the respondent feature), which knows the invite.
 */
export async function recordResponse(tx: Tx, deps: RecordResponseDeps, input: RecordResponseInput) {
  const dims = input.dims ?? {};
  const errors = [...validateAnswers(input.form.content, input.answers), ...undeclaredDimErrors(input.form, dims)];
  if (errors.length > 0) throw validationError(errors, 'The response is invalid.');
  const now = deps.clock.now();
  const [row] = await tx
    .insert(responses)
    .values({
      id: deps.newId(),
      companyId: input.form.companyId,
      formId: input.form.id,
      inviteId: input.inviteId ?? null,
      respondent: respondentData(input.respondent),
      answers: input.answers,
      dims,
      orgUnitId: input.org?.unitId ?? null,
      orgPath: input.org?.path ?? null,
      orgSource: input.org?.source ?? 'none',
      presentedOrder: input.presentedOrder ?? null,
      completedAt: input.completedAt === undefined ? now : input.completedAt,
      createdAt: now,
    })
    .returning();
  const consumerDeps = { clock: deps.clock, newId: deps.newId, eventConsumers: deps.eventConsumers };
  for (const consumer of deps.responseConsumers) await consumer.onResponse(tx, consumerDeps, row, input.form);
  return row;
}
