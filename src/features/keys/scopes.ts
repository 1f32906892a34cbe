/** The complete scope list (docs/contract.md, API keys). */
export const SCOPES = [
  'surveys:read',
  'reports:read',
  'invites:read',
  'invites:write',
  'invites:send',
  'rosters:read',
  'rosters:write',
  'events:read',
  'treatments:read',
] as const;

export type Scope = (typeof SCOPES)[number];

/** A scope granted implicitly by another (invites:write also reads invites). */
const IMPLIED: Partial<Record<Scope, Scope[]>> = { 'invites:read': ['invites:write'] };

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(needed) || (IMPLIED[needed] ?? []).some((s) => granted.includes(s));
}
