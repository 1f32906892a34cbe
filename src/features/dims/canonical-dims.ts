import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import type { FieldError } from '../../lib/errors.js';
import { resolveEntityRefs, type EntityRef, type ResolvedEntities } from '../entities/index.js';
import type { EntityKind } from '../entities/index.js';
import type { DimKind } from '../forms/index.js';
import { canonicalScalarDim, decimalText, type ScalarDimKind } from './canonical.js';

/** A dim as a form declares it (ResolvedDim fits). */
export interface DeclaredDim {
  key: string;
  kind: DimKind;
}

export type CanonicalDimsResult =
  | { ok: true; dims: Record<string, string>; orgUnit?: { id: string; orgPath: string } }
  | { ok: false; errors: FieldError[] };

const ENTITY_DIM_KINDS: readonly DimKind[] = ['course', 'teacher', 'unit'];
const isEntityKind = (kind: DimKind): kind is EntityKind => ENTITY_DIM_KINDS.includes(kind);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The id or code a caller wrote for an entity; a number is accepted for numeric codes. */
function entityRefText(raw: unknown): string | null {
  if (typeof raw === 'string') return raw.trim() || null;
  return typeof raw === 'number' && Number.isFinite(raw) ? decimalText(raw) : null;
}

type DimRef = EntityRef & { key: string };
type OrgUnit = { id: string; orgPath: string };

/** Checks every key against the declaration: scalars are canonical at once, entities await resolution. */
function readDims(declared: Map<string, DeclaredDim>, given: Record<string, unknown>) {
  const errors: FieldError[] = [];
  const values = new Map<string, string>();
  const refs: DimRef[] = [];
  for (const [key, raw] of Object.entries(given)) {
    const path = `dims.${key}`;
    const dim = declared.get(key);
    if (dim === undefined) {
      errors.push({ path, code: 'unknown_field', message: `The form declares no dim "${key}" that can be set here.` });
    } else if (isEntityKind(dim.kind)) {
      const value = entityRefText(raw);
      if (value === null) errors.push({ path, code: 'invalid_type', message: `A ${dim.kind} must be given by its id or code, as a string.` });
      else refs.push({ key, kind: dim.kind, value });
    } else {
      const result = canonicalScalarDim(dim.kind as ScalarDimKind, raw);
      if (result.ok) values.set(key, result.value);
      else errors.push({ path, code: result.code, message: result.message });
    }
  }
  return { errors, values, refs };
}

/** Entity references to ids (already resolved); the unit also gives the org unit. */
function applyDimRefs(resolved: ResolvedEntities, refs: DimRef[], values: Map<string, string>, errors: FieldError[]): OrgUnit | undefined {
  let orgUnit: OrgUnit | undefined;
  for (const { key, kind, value } of refs) {
    const entity = resolved.get(kind, value);
    if (entity === null) {
      errors.push({ path: `dims.${key}`, code: 'unknown_entity', message: `No ${kind} has the id or code "${value}".` });
    } else {
      values.set(key, entity.id);
      if (kind === 'unit') orgUnit = { id: entity.id, orgPath: entity.orgPath! };
    }
  }
  return orgUnit;
}

/** The entity references among a caller's dims, so that many callers' can be resolved in one query (a bulk import's chunk). */
export function dimEntityRefs(declaredDims: readonly DeclaredDim[], rawDims: unknown): EntityRef[] {
  const given = rawDims ?? {};
  return isRecord(given) ? readDims(new Map(declaredDims.map((dim) => [dim.key, dim])), given).refs : [];
}

/**
 * Canonical stored dims from what a caller sent (an invite's dims, public-link parameters):
 * entity kinds become ids (an id or the caller's code is accepted), numbers their decimal text,
 * dates YYYY-MM-DD, text trimmed. Pass only the dims the caller may set (for example those with
 * source "invite"): any other key is `unknown_field`. Keys the caller leaves out stay out. The
 * unit dim also gives the org unit (id and org path) of whatever carries these dims.
 * Errors have paths `dims.<key>`.
 */
export async function canonicalDims(db: DbOrTx, deps: NoDeps, input: { companyId: string; declaredDims: readonly DeclaredDim[]; rawDims: unknown }): Promise<CanonicalDimsResult> {
  const { companyId, declaredDims, rawDims } = input;
  return canonicalDimsResolved(await resolveEntityRefs(db, deps, { companyId, refs: dimEntityRefs(declaredDims, rawDims) }), declaredDims, rawDims);
}

/** canonicalDims with the entity references already resolved (resolveEntityRefs of dimEntityRefs, possibly of many callers). */
export function canonicalDimsResolved(resolved: ResolvedEntities, declaredDims: readonly DeclaredDim[], rawDims: unknown): CanonicalDimsResult {
  const given = rawDims ?? {};
  if (!isRecord(given)) return { ok: false, errors: [{ path: 'dims', code: 'invalid_type', message: 'dims must be an object of key → value.' }] };
  const { errors, values, refs } = readDims(new Map(declaredDims.map((dim) => [dim.key, dim])), given);
  const orgUnit = applyDimRefs(resolved, refs, values, errors);
  if (errors.length > 0) return { ok: false, errors };
  // Declared order, so equal dims serialise alike.
  const dims = Object.fromEntries(declaredDims.filter((dim) => values.has(dim.key)).map((dim) => [dim.key, values.get(dim.key)!]));
  return orgUnit ? { ok: true, dims, orgUnit } : { ok: true, dims };
}
