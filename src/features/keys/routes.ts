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
  { $id: 'Me' },
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
        response: { 200: successEnvelope(Type.Ref(Me)), ...errorResponses() },
      },
    },
    async (request) => {
      const { company, id, name, scopes, rateLimitPerMin } = request.auth;
      return ok({ company, apiKey: { id, name, scopes, rateLimitPerMin } });
    },
  );
}

export const keySchemas = [Me];
