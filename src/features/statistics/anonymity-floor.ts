import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';

export const DEFAULT_ANONYMITY_FLOOR = 5;

/**
 * The company's anonymity floor (companies.settings.anonymityFloor, default 5).
 * TODO(merge): the companies feature adds a settings accessor (`quorum company set
 * --anonymity-floor`); read the floor through it and delete this file.
 */
export async function anonymityFloor(db: DbOrTx, companyId: string): Promise<number> {
  const { rows } = await db.execute<{ floor: unknown }>(sql`SELECT settings->'anonymityFloor' AS floor FROM companies WHERE id = ${companyId}`);
  const floor = rows[0]?.floor;
  return typeof floor === 'number' && Number.isInteger(floor) && floor >= 1 ? floor : DEFAULT_ANONYMITY_FLOOR;
}
