import type { FieldErrorCode } from '../../lib/field-errors.js';
import { and, eq, or, sql } from 'drizzle-orm';
import { lockForTransaction } from '../../platform/db/advisory-lock.js';
import type { DbOrTx, Tx } from '../../platform/db/database.js';
import type { Clock } from '../../lib/clock.js';
import { validationError, type FieldError } from '../../lib/errors.js';
import type { IdGenerator } from '../../lib/ids.js';
import { findParentCycles, orderUnitsParentFirst, parseEntityFile, type EntityInput, type EntityKind } from './parse-entities.js';
import { entities, type EntityRow } from './table.js';

export type EntityFileFormat = 'json' | 'csv';

export interface EntityImportResult {
  created: number;
  updated: number;
  unchanged: number;
  /** units not in the file whose org path changed because an ancestor moved */
  relocated: number;
}

type StoredEntity = Pick<EntityRow, 'id' | 'kind' | 'code' | 'name' | 'parentId' | 'orgPath'>;
/** A row as it must be stored after the import; `inFile` is false for stored units the file leaves out. */
type PlannedEntity = StoredEntity & { inFile: boolean };

/** A unit of the tree after the import: the file's units over the stored ones. */
interface UnitNode {
  id: string;
  code: string;
  name: string;
  parentCode: string | null;
  /** position in the file; undefined for stored units the file leaves out */
  index?: number;
}

/** Paths of entity `index` as parseEntityFile reports them (see its header). */
const ENTITY_PATHS: Record<EntityFileFormat, (index: number) => string> = {
  json: (index) => `entities[${index}]`,
  csv: (index) => `rows[${index + 1}]`,
};

const refOf = (entity: { kind: EntityKind; code: string }) => `${entity.kind}:${entity.code}`;

/** Parses and imports an entity file; every problem is a VALIDATION_ERROR entry with its path. */
export async function importEntityFile(db: DbOrTx, deps: { clock: Clock; newId: IdGenerator }, input: { companyId: string; text: string; format: EntityFileFormat }) {
  const { companyId, text, format } = input;
  const parsed = parseEntityFile(text, format);
  if (!parsed.ok) throw validationError(parsed.errors, 'The entity file is invalid.');
  return importEntities(db, deps, { companyId, incoming: parsed.value, pathOf: ENTITY_PATHS[format] });
}

/**
 * Upserts entities by (kind, code) in one transaction and a handful of statements whatever the
 * row count. A unit's parent is its parentCode in the file (none: a root), which may name a unit
 * of the file or one already stored; moving a unit recomputes the org path of its whole subtree.
 * Rows whose stored state already matches are not written, so importing a file twice changes
 * nothing the second time. Imports of one company run one at a time.
 */
export async function importEntities(
  db: DbOrTx,
  deps: { clock: Clock; newId: IdGenerator },
  input: { companyId: string; incoming: readonly EntityInput[]; pathOf?: (index: number) => string },
): Promise<EntityImportResult> {
  const { companyId, incoming, pathOf = ENTITY_PATHS.json } = input;
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, 'entity-import', companyId);
    const stored = await loadAffected(tx, companyId, incoming);
    const { rows, errors } = planImport(stored, incoming, deps.newId, pathOf);
    if (errors.length > 0) throw validationError(errors, 'The entity file does not fit the stored units.');
    const storedById = new Map(stored.map((entity) => [entity.id, entity]));
    const changed = rows.filter((row) => !sameEntity(storedById.get(row.id), row));
    if (changed.length > 0) await upsert(tx, companyId, changed, deps.clock.now());
    return countChanges(incoming.length, changed, storedById);
  });
}

/** Every stored unit (a move anywhere can touch any subtree) and the stored courses and teachers the file names. */
function loadAffected(tx: Tx, companyId: string, incoming: readonly EntityInput[]): Promise<StoredEntity[]> {
  const flat = JSON.stringify(incoming.filter((e) => e.kind !== 'unit').map(({ kind, code }) => ({ kind, code })));
  return tx
    .select({ id: entities.id, kind: entities.kind, code: entities.code, name: entities.name, parentId: entities.parentId, orgPath: entities.orgPath })
    .from(entities)
    .where(
      and(
        eq(entities.companyId, companyId),
        or(
          eq(entities.kind, 'unit'),
          sql`(${entities.kind}, ${entities.code}) IN (SELECT r.kind, r.code FROM jsonb_to_recordset(${flat}::jsonb) AS r(kind text, code text))`,
        ),
      ),
    );
}

/**
 * The rows as they must be stored: the file's courses and teachers, then every unit (the file's
 * over the stored ones) parents first, with the parent ids and org paths of the resulting tree.
 * Ids are kept by kind and code; new entities get new ones. Errors: a parentCode naming no unit,
 * or a move under the unit's own subtree.
 */
function planImport(stored: StoredEntity[], incoming: readonly EntityInput[], newId: IdGenerator, pathOf: (index: number) => string) {
  const storedByRef = new Map(stored.map((entity) => [refOf(entity), entity]));
  const withIds = incoming.map((entity) => ({ ...entity, id: storedByRef.get(refOf(entity))?.id ?? newId() }));
  const units = unitTree(stored, withIds);
  const errors = treeErrors(units, pathOf);
  if (errors.length > 0) return { rows: [], errors };

  const flat: PlannedEntity[] = withIds
    .filter((entity) => entity.kind !== 'unit')
    .map(({ id, kind, code, name }) => ({ id, kind, code, name, parentId: null, orgPath: null, inFile: true }));
  return { rows: [...flat, ...placeUnits(units)], errors };
}

/** Units by code after the import: stored units keep their parent unless the file lists them. */
function unitTree(stored: StoredEntity[], incoming: (EntityInput & { id: string })[]): Map<string, UnitNode> {
  const storedUnits = stored.filter((entity) => entity.kind === 'unit');
  const codeById = new Map(storedUnits.map((unit) => [unit.id, unit.code]));
  const units = new Map<string, UnitNode>(
    storedUnits.map(({ id, code, name, parentId }) => [code, { id, code, name, parentCode: parentId ? codeById.get(parentId)! : null }]),
  );
  incoming.forEach(({ id, kind, code, name, parentCode }, index) => {
    if (kind === 'unit') units.set(code, { id, code, name, parentCode: parentCode ?? null, index });
  });
  return units;
}

function treeErrors(units: Map<string, UnitNode>, pathOf: (index: number) => string): FieldError[] {
  const fromFile = [...units.values()].filter((unit) => unit.index !== undefined).sort((a, b) => a.index! - b.index!);
  const at = (unit: UnitNode, code: FieldErrorCode, message: string) => ({ path: `${pathOf(unit.index!)}.parentCode`, code, message });
  const unknown = fromFile
    .filter((unit) => unit.parentCode !== null && !units.has(unit.parentCode))
    .map((unit) => at(unit, 'unknown_entity', `No unit has the code "${unit.parentCode}", in this file or stored.`));
  // parseEntityFile rejects cycles within the file; these come from moving a stored unit under its own subtree.
  const onCycle = new Set(findParentCycles([...units.values()]).flat());
  const cycles = fromFile
    .filter((unit) => onCycle.has(unit))
    .map((unit) => at(unit, 'invalid_reference', `Unit "${unit.code}" would become its own ancestor through "${unit.parentCode}".`));
  return [...unknown, ...cycles];
}

/** Every unit with its parent id and org path /<rootId>/.../<id>/, parents first. */
function placeUnits(units: Map<string, UnitNode>): PlannedEntity[] {
  const paths = new Map<string, string>();
  return orderUnitsParentFirst([...units.values()]).map((unit) => {
    const parent = unit.parentCode === null ? undefined : units.get(unit.parentCode)!;
    const orgPath = `${parent ? paths.get(parent.code)! : '/'}${unit.id}/`;
    paths.set(unit.code, orgPath);
    return { id: unit.id, kind: 'unit', code: unit.code, name: unit.name, parentId: parent?.id ?? null, orgPath, inFile: unit.index !== undefined };
  });
}

function sameEntity(stored: StoredEntity | undefined, planned: PlannedEntity): boolean {
  return stored !== undefined && stored.name === planned.name && stored.parentId === planned.parentId && stored.orgPath === planned.orgPath;
}

function countChanges(fileCount: number, changed: PlannedEntity[], storedById: Map<string, StoredEntity>): EntityImportResult {
  const fromFile = changed.filter((row) => row.inFile);
  const created = fromFile.filter((row) => !storedById.has(row.id)).length;
  const updated = fromFile.length - created;
  return { created, updated, unchanged: fileCount - created - updated, relocated: changed.length - fromFile.length };
}

/**
 * One statement for every row: inserts the new, updates the changed. Rows go parents first; the
 * parent foreign key is checked at the end of the statement in any case.
 */
async function upsert(tx: Tx, companyId: string, rows: PlannedEntity[], now: Date): Promise<void> {
  const payload = JSON.stringify(rows.map((row) => ({ id: row.id, kind: row.kind, code: row.code, name: row.name, parent_id: row.parentId, org_path: row.orgPath })));
  const at = now.toISOString();
  await tx.execute(sql`
    INSERT INTO entities (id, company_id, kind, code, name, parent_id, org_path, created_at, updated_at)
    SELECT r.id, ${companyId}::uuid, r.kind, r.code, r.name, r.parent_id, r.org_path, ${at}::timestamptz, ${at}::timestamptz
      FROM jsonb_to_recordset(${payload}::jsonb) AS r(id uuid, kind text, code text, name text, parent_id uuid, org_path text)
    ON CONFLICT (company_id, kind, code) DO UPDATE
       SET name = EXCLUDED.name, parent_id = EXCLUDED.parent_id, org_path = EXCLUDED.org_path, updated_at = EXCLUDED.updated_at`);
}
