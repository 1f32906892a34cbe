import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks real answers against the generated OpenAPI document: every answer of a documented
 * operation must have a documented status and a body matching its schema. The harness runs it
 * on every request, so the whole suite proves the published contract.
 */
export interface OpenApiDocument {
  paths: Record<string, Record<string, { servers?: { url: string }[]; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  [key: string]: unknown;
}

interface Operation {
  pattern: RegExp;
  path: string;
  method: string;
}

function operationPrefix(operation: { servers?: { url: string }[] }, fallback: string): string {
  const server = operation.servers?.[0]?.url;
  return server === undefined ? fallback : new URL(server).pathname.replace(/\/$/, '');
}

export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly operations: Operation[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDocument, private readonly prefix = '/v1') {
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema(doc as object, 'openapi');
    this.operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        path,
        method: method.toUpperCase(),
        // An operation with servers of its own (the respondent API at the root) is matched under their path.
        pattern: new RegExp(`^${operationPrefix(operation, prefix)}${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      })),
    );
  }

  /** Throws a readable error when a documented operation answered outside its contract. */
  check(method: string, url: string, status: number, body: string): void {
    const path = url.split('?')[0];
    const operation = this.operations.find((op) => op.method === method.toUpperCase() && op.pattern.test(path));
    if (!operation) return;
    const responses = this.doc.paths[operation.path][operation.method.toLowerCase()].responses ?? {};
    const statusKey = String(status) in responses ? String(status) : 'default' in responses ? 'default' : null;
    if (!statusKey) throw new Error(`${method} ${operation.path} answered ${status}, which the OpenAPI document does not list`);
    if (!responses[statusKey].content?.['application/json']?.schema) return;
    const validate = this.validator(operation, statusKey);
    const json = JSON.parse(body);
    if (!validate(json)) {
      throw new Error(`${method} ${operation.path} ${status} does not match the OpenAPI document: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}\n${body.slice(0, 500)}`);
    }
  }

  private validator(operation: Operation, statusKey: string): ValidateFunction {
    const pointer = ['paths', operation.path, operation.method.toLowerCase(), 'responses', statusKey, 'content', 'application/json', 'schema']
      .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    const id = `openapi#/${pointer}`;
    let validate = this.validators.get(id);
    if (!validate) {
      validate = this.ajv.compile({ $ref: id });
      this.validators.set(id, validate);
    }
    return validate;
  }
}
