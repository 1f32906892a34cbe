import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { SCOPES } from '../../features/keys/scopes.js';
import { RESPONDENT_PREFIX, withResponseHeaders } from './openapi-headers.js';
import { withWebhooks } from './openapi-webhooks.js';
import { docsTheme } from './docs-theme.js';

/** The reference's sections in the order a reader meets them (the contract's route table), respondent API last. */
const API_TAGS = [
  { name: 'Account', description: 'The key and company behind a token.' },
  { name: 'Forms', description: 'Surveys as the management panel publishes them.' },
  { name: 'Responses', description: 'Answers, read by cursor.' },
  { name: 'Invites', description: 'Personal links: create, send, revoke.' },
  { name: 'Rosters', description: 'Enrollments and class groups, and their import.' },
  { name: 'Statistics', description: 'Tallies and reports over responses, behind the anonymity floor.' },
  { name: 'Treatments', description: 'Follow-up cases opened by answers that need action.' },
  { name: 'Events', description: 'Webhook subscriptions and the event catalog.' },
  { name: 'Respondent', description: 'What the respondent pages call; the credential is the link itself, no key.' },
];

/** PUBLIC_API_URL without its /v1: where /r/v1 lives. */
function serverRoot(publicApiUrl: string): string {
  return publicApiUrl.replace(/\/v1\/?$/, '') || '/';
}

/**
 * An upload route reads its multipart body itself (no body schema, which Fastify would validate
 * against a body it never parses); the document still describes the one file part it takes.
 */
function uploadBody(schema: { consumes?: readonly string[]; body?: unknown }): { body?: object } {
  if (schema.body || !schema.consumes?.includes('multipart/form-data')) return {};
  return {
    body: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file: one part, any field name' } },
    },
  };
}

/**
 * `dim.<key>=<value>` filters are pattern-named query parameters, which OpenAPI cannot name one by
 * one. They are published as one object parameter, `dims`, whose default serialisation in the query
 * (style form, explode) writes each entry as its own `name=value`: `{ "dim.course": "MATH101" }` is
 * `dim.course=MATH101`, so a generated client sends them as the route reads them.
 */
function withDimParameter(schema: { querystring?: unknown }): { querystring?: object } {
  const query = schema.querystring as { properties?: object; patternProperties?: Record<string, { maxLength?: number }> } | undefined;
  const pattern = Object.keys(query?.patternProperties ?? {}).find((key) => key.startsWith('^dim'));
  if (!query || !pattern) return {};
  const { patternProperties, ...rest } = query;
  const value = { type: 'string', ...(patternProperties![pattern].maxLength ? { maxLength: patternProperties![pattern].maxLength } : {}) };
  const dims = {
    type: 'object',
    propertyNames: { pattern },
    additionalProperties: value,
    description: 'Filters `dim.<key>=<value>`, all ANDed; each is its own query parameter named `dim.<key>` (the value is compared as a string).',
  };
  return { querystring: { ...rest, properties: { ...rest.properties, dims } } };
}

/** The OpenAPI 3.1 document is generated from the route schemas; nothing is written by hand. */
export async function registerOpenApi(app: FastifyInstance, publicApiUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quorum public API',
        version: '1.0.0',
        description:
          'Surveys, personal invitations and rosters. Every answer uses the envelope `{ success, data, meta? }` or ' +
          '`{ success: false, error: { code, message, details } }`; `error.code` is the contract, never the message. ' +
          'Every answer carries `x-request-id`; authenticated answers carry `ratelimit-limit`, `ratelimit-remaining` and `ratelimit-reset`.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: publicApiUrl, description: 'This installation' }],
      tags: API_TAGS,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: `API key \`qk_<keyId>_<secret>\`, shown once at creation. Scopes: ${SCOPES.join(', ')}. Each operation names the scope it needs.`,
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    // Shared schemas keep their $id as the component name instead of def-N.
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documents) => withWebhooks(withResponseHeaders('openapiObject' in documents ? documents.openapiObject : documents.swaggerObject)),
    transform: ({ schema, url, route }) => {
      // The panel's API and pages have their own document (src/platform/app/panel/panel-openapi.ts).
      if (url === '/panel' || url.startsWith('/panel/')) return { schema: { ...schema, hide: true } as typeof schema, url };
      // The respondent API (/r/v1) takes no key (its credential is the invite token in the path)
      // and lives beside /v1, so its operations name the installation's root as their server.
      if (RESPONDENT_PREFIX.test(url)) {
        return {
          schema: { ...schema, ...uploadBody(schema), security: [], servers: [{ url: serverRoot(publicApiUrl), description: 'This installation' }] } as typeof schema,
          url,
        };
      }
      return {
        // Each operation names the scope its key needs, straight from the route's own config.
        schema: { ...schema, ...uploadBody(schema), ...withDimParameter(schema), security: [{ bearerAuth: route.config?.scope ? [route.config.scope] : [] }] } as typeof schema,
        // Routes are mounted under /v1 while the server URL already ends in /v1.
        url: url.replace(/^\/v1(?=\/|$)/, '') || '/',
      };
    },
  });
}

/** The document at /v1/openapi.json (no key needed) and an interactive reference at /docs. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: false }, ...docsTheme });
}

export async function openApiRoute(v1: FastifyInstance): Promise<void> {
  v1.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => v1.swagger());
}
