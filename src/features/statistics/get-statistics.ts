import type { Db } from '../../platform/db/database.js';
import { shapeStatistics } from './shape-figures.js';
import { anonymitySuppressed, cutAuthors, cutTally, inRequestSnapshot, scopeRequest, type StatisticsDeps, type StatisticsQuery } from './statistics-request.js';

/** GET /forms/{id}/statistics: the figures of one cut. */
export function getStatistics(db: Db, deps: StatisticsDeps, input: StatisticsQuery) {
  return inRequestSnapshot(db, input, async (tx, form) => {
    const scope = await scopeRequest(tx, form, input, null);
    const { tally, scanned, truncated } = await cutTally(tx, scope, deps.scanCeiling);
    if (scope.floor !== null) {
      const authors = await cutAuthors(tx, scope, tally);
      if (authors < scope.floor) throw anonymitySuppressed(scope.floor, authors);
    }
    return { ...shapeStatistics(form.content, tally), truncated, scanned, from: scope.query.from ?? null, to: scope.query.to ?? null };
  });
}
