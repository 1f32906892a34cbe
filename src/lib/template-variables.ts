import Mustache from 'mustache';
import type { FieldError } from './errors.js';

/**
 * Message templates are Mustache: {{name}} is HTML-escaped where the HTML part is rendered,
 * sections ({{#name}}...{{/name}}) make a part conditional. The variables of the contract
 * decisions: name, email, phone, externalId, url, formName, expiresAt, dims.<key>; and company
 * (the sending company's name), always present like url and formName.
 */
export const ALWAYS_PRESENT = ['url', 'formName', 'company'] as const;
const CONTACT_VARIABLES = ['name', 'email', 'phone', 'externalId', 'expiresAt'] as const;
export type ContactVariable = (typeof CONTACT_VARIABLES)[number];

const DIM_VARIABLE = /^dims\.([a-z][a-zA-Z0-9_]{0,39})$/;

export interface TemplateVariables {
  /** Contact variables a message cannot do without (used outside any section). */
  required: ContactVariable[];
  /** dims.<key> keys used outside any section. */
  requiredDims: string[];
  /** Every dims.<key> key used, inside a section or not. */
  dims: string[];
  /** Names that are no variable at all. */
  unknown: string[];
  /** Syntax errors and unsupported tags (partials, delimiter changes). */
  errors: string[];
  /** Tags that print their value unescaped ({{{name}}}, {{& name}}), as written. */
  unescaped: string[];
}

type Token = [string, string, number, number, Token[]?];

function isKnown(name: string): boolean {
  return (ALWAYS_PRESENT as readonly string[]).includes(name) || (CONTACT_VARIABLES as readonly string[]).includes(name) || DIM_VARIABLE.test(name);
}

/**
 * What the templates need from an invite. A variable used only inside a section of itself is
 * optional; used bare, an invite lacking it is skipped at send time with missing_var.
 */
export function templateVariables(templates: readonly string[]): TemplateVariables {
  const result: TemplateVariables = { required: [], requiredDims: [], dims: [], unknown: [], errors: [], unescaped: [] };
  const visit = (template: string, tokens: Token[], nested: boolean) => {
    for (const [type, value, start, end, children] of tokens) {
      if (type === 'text' || type === '!') continue;
      if (type === '>' || type === '=') {
        result.errors.push(`{{${type}${value}}} is not supported`);
        continue;
      }
      // Mustache parses {{{name}}} as {{& name}}; the message quotes the tag as written.
      if (type === '&') result.unescaped.push(template.slice(start, end));
      const dim = DIM_VARIABLE.exec(value);
      if (dim) result.dims.push(dim[1]);
      if (value !== '.' && !isKnown(value)) result.unknown.push(value);
      else if (!nested && (type === 'name' || type === '&' || type === '{')) {
        if (dim) result.requiredDims.push(dim[1]);
        else if ((CONTACT_VARIABLES as readonly string[]).includes(value)) result.required.push(value as ContactVariable);
      }
      if (children) visit(template, children, true);
    }
  };
  for (const template of templates) {
    try {
      visit(template, Mustache.parse(template) as Token[], false);
    } catch (err) {
      result.errors.push((err as Error).message);
    }
  }
  result.required = [...new Set(result.required)];
  result.requiredDims = [...new Set(result.requiredDims)];
  result.dims = [...new Set(result.dims)];
  return result;
}

/** Unknown variables and syntax errors of templates, as field errors at `path`. */
export function templateFieldErrors(vars: TemplateVariables, path: string): FieldError[] {
  return [
    ...vars.unknown.map((name) => ({ path, code: 'unknown_reference' as const, message: `{{${name}}} is not a template variable.` })),
    ...vars.errors.map((message) => ({ path, code: 'invalid_format' as const, message })),
  ];
}
