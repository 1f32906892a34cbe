import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses, ok, successEnvelope } from '../../platform/app/envelope.js';
import { Me } from './schemas.js';

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

