import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { PERMISSIONS } from '../../../features/memberships/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The /panel/api OpenAPI document (the /v1 one is app.swagger()). */
    panelSwagger: FastifyInstance['swagger'];
  }
}

export const PANEL_API_PREFIX = '/panel/api';

/** Keeps only the components the panel's operations reference (the app's shared /v1 schemas are visible here too). */
function referencedComponents(document: Record<string, any>): Record<string, any> {
  const schemas: Record<string, unknown> = document.components?.schemas ?? {};
  const kept = new Set<string>();
  const queue: unknown[] = [document.paths];
  while (queue.length > 0) {
    const value = queue.pop();
    if (Array.isArray(value)) queue.push(...value);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
          const name = child.slice('#/components/schemas/'.length);
          if (!kept.has(name) && name in schemas) {
            kept.add(name);
            queue.push(schemas[name]);
          }
        } else queue.push(child);
      }
    }
  }
  return { ...document, components: { ...document.components, schemas: Object.fromEntries([...kept].sort().map((name) => [name, schemas[name]])) } };
}

/**
 * The panel API's own OpenAPI 3.1 document, built from its routes' TypeBox schemas by a second
 * @fastify/swagger instance inside the /panel/api plugin (decorated as panelSwagger): the web
 * app's types are generated from it.
 */
export async function registerPanelOpenApi(panel: FastifyInstance, publicPanelUrl: string): Promise<void> {
  await panel.register(swagger, {
    decorator: 'panelSwagger',
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quorum panel API',
        version: '1.0.0',
        description:
          'The management panel’s session-authenticated API. Same envelope and error codes as /v1. Sign in with ' +
          '`POST /session`; the `quorum_session` cookie authenticates every other call. Every POST, PUT, PATCH and DELETE ' +
          'must carry an `Origin` (or `Referer`) of the panel’s own origin and, once signed in, the header `x-csrf-token` ' +
          `given by \`GET /session\`. Each operation names the permission it needs (${PERMISSIONS.join(', ')}, or owner).`,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: `${publicPanelUrl}/api`, description: 'This installation' }],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'quorum_session' } } },
      security: [{ session: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documents) => referencedComponents('openapiObject' in documents ? documents.openapiObject : documents.swaggerObject),
    transform: ({ schema, url, route }) => {
      const config = route.config ?? {};
      const permission = config.public ? 'public' : config.permission === null ? 'any member' : String(config.permission);
      return {
        schema: {
          ...schema,
          ...(config.public ? { security: [] } : {}),
          'x-permission': permission,
        } as typeof schema,
        url: url.slice(PANEL_API_PREFIX.length) || '/',
      };
    },
  });
  panel.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => panel.panelSwagger());
}
