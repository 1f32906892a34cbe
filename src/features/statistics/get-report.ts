import type { Db } from '../../platform/db/database.js';
import { nameEntities } from '../entities/index.js';
import type { FormRecord } from '../forms/index.js';
import { shapeStatistics } from './shape-figures.js';
import { groupTallies, inRequestSnapshot, scopeRequest, type GroupBy, type StatisticsDeps, type StatisticsQuery } from './statistics-request.js';

const ENTITY_KINDS = new Set(['unit', 'course', 'teacher']);

/** Groups keyed by an entity id (org units, entity dims) are named after the entity; scalar dims have no name. */
function namesEntities(form: FormRecord, groupBy: GroupBy): boolean {
  return groupBy.kind === 'org' || form.dims.some((dim) => dim.key === groupBy.key && ENTITY_KINDS.has(dim.kind));
}

/**
 * GET /forms/{id}/report: the figures per group, in key order. Responses with no value for the
 * grouping (no such dim, no org unit) are in no group. A suppressed group is
 * `{ key, suppressed: true }` alone: no figures, no name.
 */
export function getReport(db: Db, deps: StatisticsDeps, input: StatisticsQuery & { groupBy: GroupBy }) {
  return inRequestSnapshot(db, input, async (tx, form) => {
    const scope = await scopeRequest(tx, form, input, input.groupBy);
    const grouped = await groupTallies(tx, scope, input.groupBy, deps.scanCeiling);
    // only shown groups are named
    const keys = [...grouped.byValue.keys()].filter((key) => !grouped.suppressed.has(key));
    const names = namesEntities(form, input.groupBy) ? await nameEntities(tx, {}, { companyId: form.companyId, ids: keys }) : new Map<string, string>();
    const groups = [...grouped.byValue.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, tally]) => {
        if (grouped.suppressed.has(key)) return { key, suppressed: true };
        return { key, name: names.get(key) ?? null, suppressed: false, statistics: shapeStatistics(form.content, tally) };
      });
    return {
      groupBy: input.groupBy.kind === 'dim' ? `dim.${input.groupBy.key}` : 'orgUnit',
      groups,
      truncated: grouped.truncated,
      scanned: grouped.scanned,
      from: scope.query.from ?? null,
      to: scope.query.to ?? null,
    };
  });
}
