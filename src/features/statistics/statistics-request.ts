import { sql } from 'drizzle-orm';
import { noDeps } from '../../lib/service.js';
import type { Db, DbOrTx } from '../../platform/db/database.js';
import { ApiError, notFound, validationError } from '../../lib/errors.js';
import { sqlArray } from '../../lib/sql-array.js';
import { findForm, type FormRecord } from '../forms/index.js';
import { checkPeriod } from '../responses/index.js';
import { readCompanySettings } from '../companies/index.js';
import { possibleAuthors, responsesOf } from './possible-authors.js';
import { dimCutKey, ORG_CUT_KEY, WHOLE_FORM } from '../rollups/index.js';
import { rollupTallies, scanTallies } from './read-tallies.js';
import { snapPeriod } from './snap-period.js';
import { sourceAuthors } from './source-authors.js';
import { suppressGroups } from './suppress-groups.js';
import type { Tally } from './tally.js';

export interface StatisticsQuery {
  companyId: string;
  formId: string;
  /** YYYY-MM-DD, UTC, inclusive */
  from?: string;
  to?: string;
  /** dim key → canonical value, ANDed */
  dims: Record<string, string>;
}

export type GroupBy = { kind: 'dim'; key: string } | { kind: 'org' };

export interface StatisticsDeps {
  scanCeiling: number;
}

/** What a request reads: the form, its floor (null unless anonymous) and the period it covers. */
export interface RequestScope {
  form: FormRecord;
  floor: number | null;
  query: StatisticsQuery;
}

export const groupCutKey = (groupBy: GroupBy) => (groupBy.kind === 'dim' ? dimCutKey(groupBy.key) : ORG_CUT_KEY);

export function anonymitySuppressed(floor: number, authors: number): ApiError {
  return new ApiError('ANONYMITY_SUPPRESSED', `This cut has ${authors} possible authors, under the anonymity floor of ${floor}.`, { floor, authors });
}

/**
 * All reads of one request in one read-only REPEATABLE READ transaction: the figures, the
 * authors counted for the floor and the blocks of a snapped period share one snapshot.
 */
export async function inRequestSnapshot<T>(db: Db, query: StatisticsQuery, read: (tx: DbOrTx, form: FormRecord) => Promise<T>): Promise<T> {
  checkPeriod(query);
  return db.transaction(
    async (tx) => {
      const form = await findForm(tx, noDeps, { companyId: query.companyId, id: query.formId });
      if (!form) throw notFound('Form');
      return read(tx, form);
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

const notAllowed = (path: string, message: string) => validationError([{ path, code: 'not_applicable', message }], message);

/**
 * The cuts an anonymous form allows. Each figure a reader can get is then the whole form over
 * whole blocks of days (snapPeriod), or one group of one grouping over all time, its
 * suppression decided once for that grouping (a dim filter gets the pattern of the report
 * grouped by that dim); combining a period with a dim, or two groupings, would cross-tabulate
 * cells the floor does not protect. A unit-kind dim names a unit without its subtree, which
 * overlaps groupBy=orgUnit: the org grouping is the way to cut by unit.
 */
function checkAnonymousCut(form: FormRecord, query: StatisticsQuery, groupBy: GroupBy | null): void {
  const keys = new Set([...Object.keys(query.dims), ...(groupBy?.kind === 'dim' ? [groupBy.key] : [])]);
  const cuts = keys.size + (groupBy?.kind === 'org' ? 1 : 0);
  if (cuts > 1) throw notAllowed('groupBy', 'An anonymous form is cut by one dim or by org unit at a time.');
  if (cuts > 0 && (query.from || query.to)) throw notAllowed('from', 'An anonymous form is cut by a period or by a group, not both.');
  const unitDim = form.content.dims.find((dim) => dim.kind === 'unit' && keys.has(dim.key));
  if (unitDim) throw notAllowed(`dim.${unitDim.key}`, 'On an anonymous form, cut by unit with groupBy=orgUnit.');
}

/** Applies the anonymity rules a request must pass before any figure is read. */
export async function scopeRequest(tx: DbOrTx, form: FormRecord, query: StatisticsQuery, groupBy: GroupBy | null): Promise<RequestScope> {
  if (!form.anonymous) return { form, floor: null, query };
  checkAnonymousCut(form, query, groupBy);
  const { anonymityFloor: floor } = await readCompanySettings(tx, noDeps, { companyId: query.companyId });
  const period = await snapPeriod(tx, query.companyId, form.id, floor, query);
  const scoped = { ...query, from: period.from, to: period.to };
  const [dimKey, dimValue] = Object.entries(query.dims)[0] ?? [];
  if (dimKey !== undefined) {
    // The filter must not show a group the report grouped by that dim suppresses.
    const groups = await groupTallies(tx, { form, floor, query: { ...scoped, dims: {} } }, { kind: 'dim', key: dimKey });
    if (groups.suppressed.has(dimValue)) throw anonymitySuppressed(floor, groups.authors.get(dimValue) ?? 0);
  }
  return { form, floor, query: scoped };
}

export interface CutTally {
  tally: Tally;
  scanned: number;
  truncated: boolean;
}

/**
 * The invites or enrolled persons of the query's cut: the whole form, or the one dim value an
 * anonymous form may be filtered by (checkAnonymousCut).
 */
async function sourcedWhole(tx: DbOrTx, scope: RequestScope): Promise<number> {
  const [dim] = Object.entries(scope.query.dims);
  const grouping = dim ? { kind: 'dim' as const, key: dim[0] } : { kind: 'whole' as const };
  return (await sourceAuthors(tx, scope.form, scope.query.companyId, grouping)).get(dim ? dim[1] : '') ?? 0;
}

/** The possible authors of the whole cut of an anonymous form's query. */
export async function cutAuthors(tx: DbOrTx, scope: RequestScope, tally: Tally): Promise<number> {
  return possibleAuthors(tally, await sourcedWhole(tx, scope));
}

/** The whole cut of the query: from the rollups when it has at most one dim, else a scan. */
export async function cutTally(tx: DbOrTx, scope: RequestScope, ceiling: number): Promise<CutTally> {
  const { query } = scope;
  const dims = Object.entries(query.dims);
  if (dims.length <= 1) {
    const cut = dims.length === 0 ? WHOLE_FORM : { key: dimCutKey(dims[0][0]), value: dims[0][1] };
    const tallies = await rollupTallies(tx, { ...query, cutKey: cut.key, cutValue: cut.value });
    const tally = tallies.get(cut.value) ?? new Map();
    return { tally, scanned: responsesOf(tally), truncated: false };
  }
  const scan = await scanTallies(tx, scope.form.content, query, [WHOLE_FORM.key], ceiling);
  return { tally: scan.tallies.get(WHOLE_FORM.key)!.get(WHOLE_FORM.value) ?? new Map(), scanned: scan.scanned, truncated: scan.truncated };
}

export interface GroupTallies {
  byValue: Map<string, Tally>;
  whole: Tally;
  /** possible authors per group (anonymous forms only) */
  authors: Map<string, number>;
  suppressed: Set<string>;
  scanned: number;
  truncated: boolean;
}

/** Parent units of org groups, for the nested suppression. */
async function unitParents(tx: DbOrTx, companyId: string, units: string[]): Promise<Map<string, string | null>> {
  const { rows } = await tx.execute<{ id: string; parentId: string | null }>(sql`
    SELECT id, parent_id AS "parentId" FROM entities WHERE company_id = ${companyId} AND kind = 'unit' AND id = ANY(${sqlArray('uuid', units)})`);
  return new Map(rows.map((row) => [row.id, row.parentId]));
}

/**
 * The query's cut split by a grouping, with the groups the floor suppresses. From the rollups
 * when the query has no dim filter (or only one on the grouping dim); else a scan.
 */
export async function groupTallies(tx: DbOrTx, scope: RequestScope, groupBy: GroupBy, ceiling = Infinity): Promise<GroupTallies> {
  const { query, floor } = scope;
  const key = groupCutKey(groupBy);
  const dims = Object.entries(query.dims);
  let result: Omit<GroupTallies, 'suppressed' | 'authors'>;
  if (dims.length === 0 || (dims.length === 1 && groupBy.kind === 'dim' && dims[0][0] === groupBy.key)) {
    const byValue = await rollupTallies(tx, { ...query, cutKey: key, cutValue: dims[0]?.[1] });
    const whole = dims.length === 0 ? ((await rollupTallies(tx, { ...query, cutKey: '', cutValue: '' })).get('') ?? new Map()) : (byValue.get(dims[0][1]) ?? new Map());
    result = { byValue, whole, scanned: responsesOf(whole), truncated: false };
  } else {
    const scan = await scanTallies(tx, scope.form.content, query, [key, WHOLE_FORM.key], ceiling);
    result = { byValue: scan.tallies.get(key)!, whole: scan.tallies.get(WHOLE_FORM.key)!.get('') ?? new Map(), scanned: scan.scanned, truncated: scan.truncated };
  }
  if (floor === null) return { ...result, authors: new Map(), suppressed: new Set() };
  const wholeAuthors = possibleAuthors(result.whole, await sourcedWhole(tx, scope));
  if (wholeAuthors < floor) throw anonymitySuppressed(floor, wholeAuthors);
  const sourced = await sourceAuthors(tx, scope.form, query.companyId, groupBy);
  const values = [...result.byValue.keys()];
  const authors = new Map(values.map((value) => [value, possibleAuthors(result.byValue.get(value), sourced.get(value))]));
  const parents = groupBy.kind === 'org' ? await unitParents(tx, query.companyId, values) : new Map<string, string | null>();
  const nodes = values.map((value) => ({ key: value, parent: parents.get(value) ?? null, authors: authors.get(value)! }));
  return { ...result, authors, suppressed: suppressGroups(nodes, wholeAuthors, floor) };
}
