import { Type } from '@sinclair/typebox';

export const Me = Type.Object(
  {
    company: Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String() }),
    apiKey: Type.Object({
      id: Type.String(),
      name: Type.String({ description: 'Label given when the key was created' }),
      scopes: Type.Array(Type.String()),
      rateLimitPerMin: Type.Integer({ description: 'Requests per minute allowed to this key' }),
    }),
  },
  {
    $id: 'Me',
    examples: [
      {
        company: { id: '01964f6e-2c1a-7b3e-9f00-5a1d2c3b4e5f', name: 'Lincoln High', slug: 'lincoln-high' },
        apiKey: { id: '01964f6e-2c1b-7c4d-8e11-6b2e3d4c5f60', name: 'SIS integration', scopes: ['surveys:read', 'invites:write'], rateLimitPerMin: 60 },
      },
    ],
  },
);

export const keySchemas = [Me];
