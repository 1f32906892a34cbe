import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, ok, successEnvelope } from '../../app/envelope.js';

const Me = Type.Object(
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

export async function keyRoutes(app: FastifyInstance) {
  app.get(
    '/me',
    {
      config: { scope: null },
      schema: {
        operationId: 'getMe',
        tags: ['Account'],
        summary: 'The company and key behind the token',
        description: 'Needs no scope, only a valid key: the check that a key works.',
        response: { 200: { ...successEnvelope(Type.Ref(Me)), description: 'The company and key behind the token' }, ...errorResponses() },
      },
    },
    async (request) => {
      const { company, id, name, scopes, rateLimitPerMin } = request.auth;
      return ok({ company, apiKey: { id, name, scopes, rateLimitPerMin } });
    },
  );
}

export const keySchemas = [Me];
