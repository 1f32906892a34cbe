import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliRuntime, runQuorum } from '../../../test/cli.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { describeError } from '../output.js';
import type { CliRuntime } from '../runtime.js';
import { describeEntityImport, entityFileFormat, entityImport, entityList } from './entity.js';
import { describeImport, formExport, formImport, formList } from './form.js';

const EXAMPLE = join(process.cwd(), 'src', 'features', 'forms', 'examples', 'all-question-types.json');
const dir = mkdtempSync(join(tmpdir(), 'quorum-form-cli-'));

let t: TestApp;
let rt: CliRuntime;
beforeAll(async () => {
  t = await startTestApp();
  rt = cliRuntime(t);
});
afterAll(async () => t?.close());

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => describeError(err).message,
  );

describe('quorum form commands', () => {
  it('imports, re-imports, lists and exports', async () => {
    const { slug } = await t.company();
    const created = await formImport(rt, { args: [EXAMPLE], opts: { company: slug } });
    expect(describeImport(created)).toBe(`created form course-experience (${created.id}) with 18 questions`);
    expect(describeImport(await formImport(rt, { args: [EXAMPLE], opts: { company: slug } }))).toMatch(/^unchanged form course-experience/);
    const renamed = file('renamed.json', { ...JSON.parse(readFileSync(EXAMPLE, 'utf8')), name: 'Renamed' });
    expect(describeImport(await formImport(rt, { args: [renamed], opts: { company: slug } }))).toMatch(/^updated form course-experience/);
    expect(describeImport(await formImport(rt, { args: [renamed], opts: { company: slug } }))).toMatch(/^unchanged form course-experience/);

    expect(await formList(rt, { args: [], opts: { company: slug } })).toMatchObject({ page: 1, limit: 100, total: 1, forms: [{ id: created.id, questionCount: 18 }] });

    const out = join(dir, 'exported.json');
    expect(await formExport(rt, { args: ['course-experience'], opts: { company: slug, out } })).toEqual({ slug: 'course-experience', file: out });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(await formExport(rt, { args: [created.id], opts: { company: slug } }));
    // Re-importing the unchanged export changes nothing.
    expect((await formImport(rt, { args: [out], opts: { company: slug } })).status).toBe('unchanged');

    const portable = join(dir, 'portable.json');
    await formExport(rt, { args: ['course-experience'], opts: { company: slug, out: portable, portable: true } });
    const text = readFileSync(portable, 'utf8');
    expect(text).not.toMatch(/"id":/);
    expect(text).toContain('"key":');
    const other = await t.company();
    const copied = await formImport(rt, { args: [portable], opts: { company: other.slug } });
    expect(copied).toMatchObject({ status: 'created', questionCount: 18 });
    expect(copied.id).not.toBe(created.id);
    expect((await formImport(rt, { args: [portable], opts: { company: other.slug } })).status).toBe('unchanged');
  });

  it('lists every validation problem on its own line with its JSON path', async () => {
    const { slug } = await t.company();
    const bad = file('bad.json', {
      slug: 'Bad',
      name: 'Bad',
      sections: [{ key: 's', name: 'S', questions: [{ key: 'q', name: 'Q', type: 'TEXT', options: [] }, { key: 'q', name: 'Again', type: 'SLIDER' }] }],
    });
    const lines = (await failure(formImport(rt, { args: [bad], opts: { company: slug } }))).split('\n');
    expect(lines[0]).toBe('The form definition is invalid.');
    expect(lines.slice(1)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ {2}slug: /),
        expect.stringMatching(/^ {2}sections\[0\]\.questions\[0\]\.options: /),
        expect.stringMatching(/^ {2}sections\[0\]\.questions\[1\]\.key: /),
        expect.stringMatching(/^ {2}sections\[0\]\.questions\[1\]\.type: /),
      ]),
    );
  });

  it('says clearly when the file is missing or not JSON, or the form unknown', async () => {
    const { slug } = await t.company();
    expect(await failure(formImport(rt, { args: [join(dir, 'missing.json')], opts: { company: slug } }))).toMatch(/^cannot read .*missing\.json/);
    expect(await failure(formImport(rt, { args: [file('broken.json', '{"slug": ')], opts: { company: slug } }))).toMatch(/broken\.json is not valid JSON/);
    expect(await failure(formExport(rt, { args: ['nope'], opts: { company: slug } }))).toBe('Form not found.');
    const nulInJson = file('nul.json', '{"slug": "x",\n "name": "A\\u0000B"}');
    expect(await failure(formImport(rt, { args: [nulInJson], opts: { company: slug } }))).toBe(`${nulInJson} contains a NUL character (written \\u0000, line 2); remove it and try again`);
    const nulInCsv = file('nul.csv', 'kind,code,name,parentCode\nunit,A,A\u0000,\n');
    expect(await failure(entityImport(rt, { args: [nulInCsv], opts: { company: slug } }))).toBe(`${nulInCsv} contains a NUL character (a zero byte, line 2); remove it and try again`);
    expect(await failure(formImport(rt, { args: [EXAMPLE], opts: { company: 'no-such-company' } }))).toBe('no company with slug "no-such-company" (see: quorum company list)');
  });
});

describe('quorum entity commands', () => {
  it('imports CSV and JSON by extension and lists by kind', async () => {
    const { slug } = await t.company();
    const csv = file('units.csv', 'kind,code,name,parentCode\nunit,ROOT,Root,\nunit,CHILD,Child,ROOT\n');
    const result = await entityImport(rt, { args: [csv], opts: { company: slug } });
    expect(describeEntityImport(result)).toBe('created 2, updated 0, unchanged 0');
    const json = file('people.json', { entities: [{ kind: 'teacher', code: 'T1', name: 'Ada' }, { kind: 'unit', code: 'CHILD', name: 'Child', parentCode: 'ROOT' }] });
    expect(await entityImport(rt, { args: [json], opts: { company: slug } })).toEqual({ created: 1, updated: 0, unchanged: 1, relocated: 0 });
    expect((await entityList(rt, { args: [], opts: { company: slug, kind: 'unit' } })).map((e) => [e.code, e.parentCode])).toEqual([
      ['ROOT', null],
      ['CHILD', 'ROOT'],
    ]);
  });

  it('reports row paths, and needs --format for other extensions', async () => {
    const { slug } = await t.company();
    const csv = file('orphans.csv', 'kind,code,name,parentCode\nunit,A,A,GONE\n');
    expect(await failure(entityImport(rt, { args: [csv], opts: { company: slug } }))).toContain('rows[1].parentCode: No unit has the code "GONE"');
    expect(() => entityFileFormat('units.txt')).toThrow('--format');
    expect(entityFileFormat('units.txt', 'csv')).toBe('csv');
    expect(entityFileFormat('UNITS.JSON')).toBe('json');
  });
});

// Spawns the CLI; on a loaded machine one process takes seconds.
describe('the quorum binary', { timeout: 120_000 }, () => {
  const quorum = (args: string[]) => runQuorum(args, { DATABASE_URL: t.databaseUrl, QUORUM_DATA_DIR: dir });

  it('runs form import with readable output and one error line per problem', async () => {
    const { slug } = await t.company();
    const created = await quorum(['form', 'import', '--company', slug, EXAMPLE]);
    expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(/^created form course-experience \(.+\) with 18 questions\n$/) });

    const bad = await quorum(['form', 'import', '--company', slug, file('cli-bad.json', { slug: 'x', name: 'X', sections: [] })]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('error: The form definition is invalid.\n  sections: sections must not be empty.\n');
  });
});
