import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { SCOPES } from '../features/keys/scopes.js';

/** The OpenAPI 3.1 document is generated from the route schemas; nothing is written by hand. */
export async function registerOpenApi(app: FastifyInstance, publicApiUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quorum public API',
        version: '1.0.0',
        description: 'Surveys, personal invitations and rosters. Every answer uses the envelope `{ success, data, meta? }` or `{ success: false, error: { code, message, details } }`.',
      },
      servers: [{ url: publicApiUrl }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: `API key \`qk_<keyId>_<secret>\`. Scopes: ${SCOPES.join(', ')}.`,
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    // Routes are mounted under /v1 while the server URL already ends in /v1.
    transform: ({ schema, url }) => ({ schema, url: url.replace(/^\/v1(?=\/|$)/, '') || '/' }),
  });
}
