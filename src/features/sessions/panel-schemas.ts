import { Type } from '@sinclair/typebox';
import { PERMISSIONS } from '../memberships/index.js';
import { Email, Password } from './create-user.js';

const PermissionName = Type.Union(PERMISSIONS.map((permission) => Type.Literal(permission)));

/** The signed-in person, their companies and what they may do in the current one (shared contract, "Core routes"). */
export const Session = Type.Object(
  {
    user: Type.Object({
      id: Type.String({ format: 'uuid' }),
      email: Type.String(),
      name: Type.String(),
      language: Type.Union([Type.Literal('en'), Type.Literal('pt-BR'), Type.Literal('es'), Type.Null()]),
      secondFactor: Type.Boolean({ description: 'Whether sign-in asks for a TOTP code' }),
    }),
    companies: Type.Array(
      Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), owner: Type.Boolean(), permissions: Type.Array(PermissionName) }),
    ),
    company: Type.Union([Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }), Type.Null()], {
      description: 'The company the session works in; null when the user belongs to none',
    }),
    permissions: Type.Array(PermissionName, { description: 'What the user may do in the current company (all of them for an owner)' }),
    owner: Type.Boolean(),
    csrfToken: Type.String({ description: 'Send it as x-csrf-token on every POST, PUT, PATCH and DELETE' }),
  },
  { title: 'Session' },
);

export const SignInBody = Type.Object(
  {
    email: Email,
    // bounded, not ruled: a password set before a rule change must still sign in
    password: Type.String({ minLength: 1, maxLength: 200 }),
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'The TOTP code (or a recovery code) when the account has a second factor' })),
  },
  { additionalProperties: false },
);

export const SwitchCompanyBody = Type.Object({ companyId: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

const LinkToken = Type.String({ minLength: 1, maxLength: 100, description: 'The token from the link’s fragment (#token=...)' });

export const LinkBody = Type.Object({ token: LinkToken }, { additionalProperties: false });
export const ResetBody = Type.Object({ email: Email }, { additionalProperties: false });
export const SetPasswordBody = Type.Object({ token: LinkToken, password: Password }, { additionalProperties: false });
