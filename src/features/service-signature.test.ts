import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * One service signature: `(db, deps, input)`. A service is what the outside of its feature's
 * internals calls with a database handle first: a route or page, a CLI command, a job, a
 * feature.ts, or another feature. The database (or the caller's transaction) comes first, the
 * providers it uses second (callers hand over their context), everything else in one input
 * object, so every caller calls every service the same way. Helpers private to a feature (SQL
 * fragments, locks) keep whatever shape suits them.
 */
const SRC = resolve(import.meta.dirname, '..');
const FEATURES = join(SRC, 'features');
const DB_HANDLE = /^(Db|DbOrTx|Tx)$/;
const SERVICE_PARAMS = [/^(db|tx)$/, /^_?deps$/, /^input$/];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

/**
 * What a file imports: `{ a, b } from 'spec'` by name, and `(await import('spec')).a` (how a
 * feature.ts loads its pieces) too; any other dynamic `import('spec')` (how CLI commands load
 * services) as every function of the module (names null).
 */
function imports(source: ts.SourceFile): { spec: string; names: string[] | null }[] {
  const found: { spec: string; names: string[] | null }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        found.push({ spec: node.moduleSpecifier.text, names: bindings.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text) });
      }
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      found.push({ spec: node.arguments[0].text, names: memberTaken(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `a` of `(await import('spec')).a`, else null. */
function memberTaken(call: ts.CallExpression): string[] | null {
  const awaited = call.parent;
  const wrapped = awaited && ts.isAwaitExpression(awaited) ? awaited.parent : undefined;
  const access = wrapped && ts.isParenthesizedExpression(wrapped) ? wrapped.parent : undefined;
  return access && ts.isPropertyAccessExpression(access) ? [access.name.text] : null;
}

const functionsOf = (source: ts.SourceFile): ts.FunctionDeclaration[] =>
  source.statements.filter((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && !!s.name && !!s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword));

function featureOf(file: string): string | null {
  const rel = relative(FEATURES, file);
  return rel.startsWith('..') ? null : rel.split('/')[0]!;
}

const OUTSIDE_CALLERS = /(\/routes\.ts|\/pages\/[^/]+\.ts|\.job\.ts|\/feature\.ts)$/;

/**
 * Services: the functions callers outside a feature's internals import (routes, pages, jobs,
 * feature.ts, CLI commands, other features), and the sweeps a file defines.
 */
function services(): Map<string, ts.FunctionDeclaration> {
  const callers = [...sources(FEATURES), ...sources(join(SRC, 'cli', 'commands'))];
  const found = new Map<string, ts.FunctionDeclaration>();
  const add = (source: ts.SourceFile, names: string[] | null) => {
    for (const fn of functionsOf(source)) if (!names || names.includes(fn.name!.text)) found.set(`${source.fileName}#${fn.name!.text}`, fn);
  };
  for (const caller of callers) {
    const source = parse(caller);
    if (source.text.includes('defineSweep(')) add(source, null);
    for (const { spec, names } of imports(source)) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(caller), spec.replace(/\.js$/, '.ts'));
      if (!existsSync(target) || featureOf(target) === null) continue;
      if (featureOf(caller) !== featureOf(target) || OUTSIDE_CALLERS.test(caller) || names === null) add(parse(target), names);
    }
  }
  return found;
}

describe('service signature', () => {
  it('every service a route, command, job or other feature calls takes (db, deps, input)', () => {
    const offenders: string[] = [];
    for (const declaration of services().values()) {
      const first = declaration.parameters[0];
      if (!first?.type || !ts.isTypeReferenceNode(first.type) || !DB_HANDLE.test(first.type.typeName.getText())) continue;
      const params = declaration.parameters.map((p) => p.name.getText());
      // (db, deps) alone is a service without input, such as a sweep
      const conforms = params.length >= 2 && params.length <= SERVICE_PARAMS.length && params.every((param, i) => SERVICE_PARAMS[i]!.test(param));
      if (!conforms) offenders.push(`${relative(FEATURES, declaration.getSourceFile().fileName)} ${declaration.name!.text}(${params.join(', ')})`);
    }
    expect(offenders.sort()).toEqual([]);
  });
});
