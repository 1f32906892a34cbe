import type { Db } from '../../db/database.js';
import { shapeStatistics } from './shape-figures.js';
import { groupTallies, inRequestSnapshot, scopeRequest, type GroupBy, type StatisticsDeps, type StatisticsQuery } from './statistics-request.js';

/**
 * GET /forms/{id}/report: the figures per group, in key order. Responses with no value for the
 * grouping (no such dim, no org unit) are in no group. A suppressed group carries no figures.
 */
export function getReport(db: Db, deps: StatisticsDeps, input: StatisticsQuery & { groupBy: GroupBy }) {
  return inRequestSnapshot(db, input, async (tx, form) => {
    const scope = await scopeRequest(tx, form, input, input.groupBy);
    const grouped = await groupTallies(tx, scope, input.groupBy, deps.scanCeiling);
    const groups = [...grouped.byValue.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, tally]) =>
        grouped.suppressed.has(key) ? { key, suppressed: true } : { key, suppressed: false, statistics: shapeStatistics(form.content, tally) },
      );
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
