import type { DbOrTx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { noDeps } from '../../lib/service.js';
import { findForm } from '../forms/index.js';
import { countStages, STAGES, type Stage, type StageCounts, type StageRow } from './count-stages.js';
import { GROUP_KINDS, type GroupKind } from './vocabulary.js';

export interface StageFigures extends StageCounts {
  /** Each stage's count over invited, 0..1 to four decimals; null when nobody is invited. */
  rates: Record<Stage, number | null>;
}
export interface GroupFigures extends StageFigures {
  id: string;
  code: string;
  name: string;
  enrolled: number;
}
export interface ResponseRates {
  formId: string;
  at: string;
  overall: StageFigures;
  groups: Record<GroupKind, GroupFigures[]>;
}

const rate = (count: number, invited: number) => (invited === 0 ? null : Math.round((count / invited) * 10_000) / 10_000);

function figures(row: StageRow): StageFigures {
  const rates = Object.fromEntries(STAGES.map((stage) => [stage, rate(row[stage], row.invited)])) as Record<Stage, number | null>;
  const { invited, sent, delivered, opened, started, responded } = row;
  return { invited, sent, delivered, opened, started, responded, rates };
}

const byName = (a: GroupFigures, b: GroupFigures) => a.name.localeCompare(b.name, 'en') || a.id.localeCompare(b.id);

/**
 * The invited, sent, delivered, opened, started and responded counts and rates of a form, overall
 * and per class, class group, course, teacher and org unit subtree (countStages says how an
 * invite meets the roster). Read on the primary, so the figures are current to the moment.
 * Another company's form is NOT_FOUND.
 */
export async function getResponseRates(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; formId: string }): Promise<ResponseRates> {
  const form = await findForm(db, noDeps, { companyId: input.companyId, id: input.formId });
  if (!form) throw notFound('Form');
  const at = deps.clock.now();
  const rows = await countStages(db, noDeps, { companyId: input.companyId, formId: form.id });
  const groups = Object.fromEntries(GROUP_KINDS.map((kind) => [kind, [] as GroupFigures[]])) as Record<GroupKind, GroupFigures[]>;
  for (const row of rows) {
    if (row.kind !== 'overall') groups[row.kind].push({ id: row.key, code: row.code ?? '', name: row.name ?? '', enrolled: row.enrolled ?? 0, ...figures(row) });
  }
  for (const list of Object.values(groups)) list.sort(byName);
  // The statement's ungrouped aggregate always yields the overall row.
  const overall = figures(rows.find((row) => row.kind === 'overall')!);
  return { formId: form.id, at: at.toISOString(), overall, groups };
}
