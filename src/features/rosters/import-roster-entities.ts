import type { Tx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { validationError } from '../../lib/errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { importEntities, validateEntityRows, type EntityImportResult, type EntityInput, type EntityKind } from '../entities/index.js';

/** The registered entities a roster payload may carry, so a first import needs no operator step *(extension)*. */
export interface RosterEntityLists {
  orgUnits?: unknown[];
  courses?: unknown[];
  teachers?: unknown[];
}

export const ENTITY_LISTS: ReadonlyArray<[keyof RosterEntityLists, EntityKind]> = [
  ['orgUnits', 'unit'],
  ['courses', 'course'],
  ['teachers', 'teacher'],
];

export interface RosterEntities {
  incoming: EntityInput[];
  /** The payload path of each incoming entity (`orgUnits[2]`), for importEntities' errors. */
  paths: string[];
}

/** The payload's units, courses and teachers as entity rows; an invalid one refuses the import (VALIDATION_ERROR), as an entity file does. */
export function rosterEntities(payload: RosterEntityLists): RosterEntities {
  const rows = ENTITY_LISTS.flatMap(([list, kind]) =>
    (payload[list] ?? []).map((row, index) => {
      const { code, name, parentCode } = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
      return { path: `${list}[${index}]`, fields: { kind, code, name, ...(kind === 'unit' && parentCode !== undefined && parentCode !== null && parentCode !== '' ? { parentCode } : {}) } };
    }),
  );
  const checked = validateEntityRows(rows);
  if (!checked.ok) throw validationError(checked.errors, 'The roster names invalid units, courses or teachers.');
  return { incoming: checked.value, paths: rows.map((row) => row.path) };
}

/** Upserts them in the import's transaction (a savepoint), before the classes that name them are resolved. */
export async function applyRosterEntities(tx: Tx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; entities: RosterEntities }): Promise<EntityImportResult | null> {
  const { incoming, paths } = input.entities;
  if (incoming.length === 0) return null;
  return importEntities(tx, deps, { companyId: input.companyId, incoming, pathOf: (index) => paths[index] });
}
