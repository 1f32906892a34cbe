import { Type, type Static } from '@sinclair/typebox';
import { SCOPES } from './scopes.js';

const Instant = (description: string) => Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

/** A key as the panel lists it (create-key.ts publicKey): never the secret or its hash. */
export const PanelApiKey = Type.Object(
  {
    id: Type.String(),
    tokenId: Type.String({ description: 'The id inside the token (qk_<tokenId>_...): what a person holding a leaked token can name' }),
    name: Type.String(),
    scopes: Type.Array(Type.String()),
    rateLimitPerMin: Type.Integer(),
    expiresAt: Instant('When the key stops working; null: never'),
    revokedAt: Instant('When the key was revoked; null: active'),
    lastUsedAt: Instant('Last accepted request, to the minute (written at most once a minute); null: never used'),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'API key' },
);

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ maxLength: 200, description: 'A label people recognise (e.g. "SIS integration")' }),
    scopes: Type.Array(Type.Union(SCOPES.map((scope) => Type.Literal(scope))), { maxItems: 100 }),
    rateLimitPerMin: Type.Optional(Type.Integer({ description: 'Requests per minute; default 60' })),
    expiresAt: Type.Optional(Instant('When the key stops working (in the future); null or absent: never')),
  },
  { additionalProperties: false },
);
export type CreateKeyBody = Static<typeof CreateKeyBody>;

export const CreatedKey = Type.Object({
  key: PanelApiKey,
  token: Type.String({ description: 'The bearer token, shown this once: only its hash is stored' }),
});

