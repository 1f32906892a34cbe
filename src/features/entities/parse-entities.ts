/**
 * Parsing of registered-entity import files (courses, teachers, units). Pure: whether a
 * parentCode names a unit already stored is for the importer to check; this module checks
 * everything that can be known from the file alone, cycles between its units included.
 *
 * JSON: `{ "entities": [ { "kind", "code", "name", "parentCode"? } ] }` or the bare array.
 *       Error paths: `entities[<zero-based index>].<field>` (a bare array counts as `entities`).
 * CSV:  header `kind,code,name,parentCode` (any order, case-insensitive; parentCode optional),
 *       UTF-8 with or without BOM, comma separated, blank lines ignored, cells trimmed.
 *       Error paths: `rows[<n>].<field>` where n counts data rows from 1 (header and blank lines
 *       not counted); messages also name the file line. Header errors use `header`.
 * Text fields are trimmed in both formats; an empty parentCode means none.
 */
import { Type } from '@sinclair/typebox';
import { parse } from 'csv-parse/sync';
import type { FieldError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import { schemaErrors } from '../../lib/schema-errors.js';

import { ENTITY_KINDS, type EntityKind } from './vocabulary.js';
export { ENTITY_KINDS, type EntityKind } from './vocabulary.js';

export interface EntityInput {
  kind: EntityKind;
  /** the caller's code, unique per kind */
  code: string;
  name: string;
  /** units only: code of the parent unit, in this file or already stored */
  parentCode?: string;
}

export type EntityParseResult = { ok: true; value: EntityInput[] } | { ok: false; errors: FieldError[] };

export const ENTITY_CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
export const MAX_ENTITY_NAME_LENGTH = 200;

const FIELDS = ['kind', 'code', 'name', 'parentCode'] as const;
type Field = (typeof FIELDS)[number];
const REQUIRED_FIELDS: readonly Field[] = ['kind', 'code', 'name'];

/** One entity as read from the file, before validation. */
interface RawEntity {
  path: string;
  /** file line, for CSV messages */
  line?: number;
  fields: Record<string, unknown>;
}

type Read<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export function parseEntityFile(text: string, format: 'json' | 'csv'): EntityParseResult {
  const read = format === 'json' ? readJson(text) : readCsv(text);
  return read.ok ? validateEntities(read.value) : read;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// --- JSON ---

function readJson(text: string): Read<RawEntity[]> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [fieldError('', 'invalid_format', `The file is not valid JSON: ${(error as Error).message}`)] };
  }
  const list = Array.isArray(document) ? document : isRecord(document) ? document.entities : undefined;
  const errors = jsonShapeErrors(document, list);
  if (errors.length > 0) return { ok: false, errors };
  const entities = list as unknown[];
  const itemErrors = entities.flatMap((item, index) =>
    isRecord(item) ? unknownPropertyErrors(item, `entities[${index}]`) : [fieldError(`entities[${index}]`, 'invalid_type', 'Each entity must be an object.')],
  );
  if (itemErrors.length > 0) return { ok: false, errors: itemErrors };
  return { ok: true, value: entities.map((fields, index) => ({ path: `entities[${index}]`, fields: fields as Record<string, unknown> })) };
}

function jsonShapeErrors(document: unknown, list: unknown): FieldError[] {
  if (!Array.isArray(document) && !isRecord(document)) {
    return [fieldError('', 'invalid_type', 'The file must be an object with "entities" or an array of entities.')];
  }
  const extra = isRecord(document)
    ? Object.keys(document).filter((key) => key !== 'entities').map((key) => fieldError(key, 'unknown_field', `${key} is not a known property here.`))
    : [];
  if (list === undefined) return [fieldError('entities', 'required', 'entities is required.'), ...extra];
  if (!Array.isArray(list)) return [fieldError('entities', 'invalid_type', 'entities must be an array.'), ...extra];
  return extra;
}

function unknownPropertyErrors(item: Record<string, unknown>, path: string): FieldError[] {
  return Object.keys(item)
    .filter((key) => !(FIELDS as readonly string[]).includes(key))
    .map((key) => fieldError(`${path}.${key}`, 'unknown_field', `${key} is not a known property; use ${FIELDS.join(', ')}.`));
}

// --- CSV ---

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

function readCsv(text: string): Read<RawEntity[]> {
  let records: CsvRecord[];
  try {
    records = parse(text, {
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
      record_delimiter: ['\r\n', '\n', '\r'],
    }) as unknown as CsvRecord[];
  } catch (error) {
    return { ok: false, errors: [fieldError('', 'invalid_format', `The file is not valid CSV: ${(error as Error).message}`)] };
  }
  if (records.length === 0) return { ok: false, errors: [fieldError('header', 'required', 'The file is empty; it needs the header kind,code,name,parentCode.')] };
  const columns = readHeader(records[0].record);
  if (!columns.ok) return columns;
  const rows = records.slice(1);
  const widthErrors = rows.flatMap((row, index) => extraCellErrors(row, index + 1, columns.value.length));
  if (widthErrors.length > 0) return { ok: false, errors: widthErrors };
  return {
    ok: true,
    value: rows.map((row, index) => ({
      path: `rows[${index + 1}]`,
      line: row.info.lines,
      fields: Object.fromEntries(columns.value.map((field, column) => [field, row.record[column] || undefined])),
    })),
  };
}

function readHeader(header: string[]): Read<Field[]> {
  const fields = header.map((name) => FIELDS.find((field) => field.toLowerCase() === name.toLowerCase()));
  const errors = [
    ...header.flatMap((name, index) =>
      fields[index] === undefined ? [fieldError(`header[${index}]`, 'unknown_field', `Unknown column "${name}"; the columns are ${FIELDS.join(', ')}.`)] : [],
    ),
    ...fields.flatMap((field, index) =>
      field !== undefined && fields.indexOf(field) !== index ? [fieldError(`header[${index}]`, 'not_unique', `Column ${field} appears twice.`)] : [],
    ),
    ...REQUIRED_FIELDS.filter((field) => !fields.includes(field)).map((field) =>
      fieldError('header', 'required', `The header must have a ${field} column.`),
    ),
  ];
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: fields as Field[] };
}

function extraCellErrors(row: CsvRecord, rowNumber: number, width: number): FieldError[] {
  const extra = row.record.slice(width).filter((cell) => cell !== '');
  return extra.length === 0
    ? []
    : [fieldError(`rows[${rowNumber}]`, 'too_long', `Row has ${row.record.length} cells but the header has ${width} (line ${row.info.lines}).`)];
}

// --- validation shared by both formats ---

/** Checks entities read from elsewhere (a roster payload): each row's fields, duplicates and unit cycles, with the paths given. */
export function validateEntityRows(rows: ReadonlyArray<{ path: string; fields: Record<string, unknown> }>): EntityParseResult {
  return validateEntities(rows.map(({ path, fields }) => ({ path, fields })));
}

function validateEntities(raws: RawEntity[]): EntityParseResult {
  const checked = raws.map((raw) => ({ raw, ...checkEntity(raw) }));
  const entities = checked.flatMap(({ raw, entity }) => (entity ? [{ raw, entity }] : []));
  const errors = [
    ...checked.flatMap((item) => item.errors),
    ...duplicateCodeErrors(entities),
    ...cycleErrors(entities),
  ];
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: entities.map((item) => item.entity) };
}

/** One entity's fields (texts trimmed, blanks left out), declared once; the name's length is counted apart, in characters. */
const EntityCode = Type.String({ pattern: ENTITY_CODE_PATTERN.source, errorMessage: 'must be 1 to 64 letters, digits or . _ : -, starting with a letter or digit' });
const EntityRecord = Type.Object({
  kind: Type.Union(ENTITY_KINDS.map((kind) => Type.Literal(kind))),
  code: EntityCode,
  name: Type.String(),
  parentCode: Type.Optional(EntityCode),
});

function checkEntity(raw: RawEntity): { entity?: EntityInput; errors: FieldError[] } {
  const fields = Object.fromEntries(FIELDS.flatMap((field) => {
    const value = readText(raw.fields[field]);
    return value === undefined ? [] : [[field, value]];
  }));
  // A missing field is "required" (the schema's union would word a missing kind as a bad value).
  const missing = REQUIRED_FIELDS.filter((field) => fields[field] === undefined);
  const errors = [
    ...missing.map((field) => fieldError(`${raw.path}.${field}`, 'required', `${field} is required.`)),
    ...schemaErrors(EntityRecord, fields, raw.path).filter((error) => !missing.includes(fieldOf(error.path))),
  ];
  const { kind, name, parentCode } = fields;
  if (typeof name === 'string' && [...name].length > MAX_ENTITY_NAME_LENGTH) {
    errors.push(fieldError(`${raw.path}.name`, 'too_long', `name must be at most ${MAX_ENTITY_NAME_LENGTH} characters.`));
  }
  errors.sort((a, b) => FIELDS.indexOf(fieldOf(a.path)) - FIELDS.indexOf(fieldOf(b.path)));
  if (parentCode !== undefined && kind !== 'unit' && (ENTITY_KINDS as readonly unknown[]).includes(kind)) {
    errors.push(fieldError(`${raw.path}.parentCode`, 'not_applicable', `Only units have a parent; a ${String(kind)} cannot.`));
  }
  if (errors.length > 0) return { errors: raw.line === undefined ? errors : errors.map((error) => ({ ...error, message: error.message.replace(/\.$/, ` (line ${raw.line}).`) })) };
  return { entity: fields as unknown as EntityInput, errors };
}

/** The entity field an error path ends in. */
function fieldOf(path: string): Field {
  return path.slice(path.lastIndexOf('.') + 1) as Field;
}

/** Trimmed text; blank text and null count as absent. Non-strings pass through to be rejected. */
function readText(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

interface CheckedEntity {
  raw: RawEntity;
  entity: EntityInput;
}

function duplicateCodeErrors(items: CheckedEntity[]): FieldError[] {
  const first = new Map<string, CheckedEntity>();
  return items.flatMap((item) => {
    const id = `${item.entity.kind}:${item.entity.code}`;
    const earlier = first.get(id);
    if (earlier === undefined) {
      first.set(id, item);
      return [];
    }
    return [fieldError(`${item.raw.path}.code`, 'not_unique', `The ${item.entity.kind} code "${item.entity.code}" already appears at ${earlier.raw.path}.`)];
  });
}

/** One error per unit on a cycle, in file order, each showing the cycle from that unit. */
function cycleErrors(items: CheckedEntity[]): FieldError[] {
  const units = items.filter((item) => item.entity.kind === 'unit');
  const cycleOf = new Map<EntityInput, EntityInput[]>();
  for (const cycle of findParentCycles(units.map((item) => item.entity))) for (const unit of cycle) cycleOf.set(unit, cycle);
  return units.flatMap(({ entity, raw }) => {
    const cycle = cycleOf.get(entity);
    if (cycle === undefined) return [];
    const start = cycle.indexOf(entity);
    const chain = [...cycle.slice(start), ...cycle.slice(0, start), entity].map((unit) => unit.code).join(' → ');
    return [fieldError(`${raw.path}.parentCode`, 'invalid_reference', `Unit "${entity.code}" is its own ancestor: ${chain}.`)];
  });
}

// --- unit tree ---

export interface UnitLike {
  code: string;
  parentCode?: string | null;
}

/** The cycles of the parent relation among these units (parents outside the list end a chain). */
export function findParentCycles<T extends UnitLike>(units: readonly T[]): T[][] {
  const byCode = unitsByCode(units);
  const state = new Map<T, 'walking' | 'done'>();
  const cycles: T[][] = [];
  for (const start of units) {
    const walked: T[] = [];
    let current: T | undefined = start;
    while (current !== undefined && !state.has(current)) {
      state.set(current, 'walking');
      walked.push(current);
      current = parentOf(current, byCode);
    }
    if (current !== undefined && state.get(current) === 'walking') cycles.push(walked.slice(walked.indexOf(current)));
    for (const unit of walked) state.set(unit, 'done');
  }
  return cycles;
}

/**
 * The units reordered so that every unit comes after its parent when the parent is in the list;
 * otherwise file order is kept. Units whose parent is not in the list (already stored) come as
 * they are. Throws on a cycle, which parseEntityFile has already reported.
 */
export function orderUnitsParentFirst<T extends UnitLike>(units: readonly T[]): T[] {
  const cycles = findParentCycles(units);
  if (cycles.length > 0) throw new Error(`Units form a cycle: ${cycles[0].map((unit) => unit.code).join(' → ')}`);
  const byCode = unitsByCode(units);
  const placed = new Set<T>();
  const ordered: T[] = [];
  for (const unit of units) {
    const pending: T[] = [];
    for (let current: T | undefined = unit; current !== undefined && !placed.has(current); current = parentOf(current, byCode)) {
      pending.push(current);
    }
    for (const ancestorFirst of pending.reverse()) {
      placed.add(ancestorFirst);
      ordered.push(ancestorFirst);
    }
  }
  return ordered;
}

/** First unit per code: duplicates are reported by the parser, not resolved here. */
function unitsByCode<T extends UnitLike>(units: readonly T[]): Map<string, T> {
  const byCode = new Map<string, T>();
  for (const unit of units) if (!byCode.has(unit.code)) byCode.set(unit.code, unit);
  return byCode;
}

function parentOf<T extends UnitLike>(unit: T, byCode: Map<string, T>): T | undefined {
  return unit.parentCode ? byCode.get(unit.parentCode) : undefined;
}
