import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { findForm } from './find-form.js';
import { importForm } from './import-form.js';
import { minimalForm } from '../../../test/forms.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

const definition = minimalForm;

const importInto = (companyId: string, def: unknown) => importForm(t.ctx.db, t.ctx, { companyId, rawJson: def });

async function insertResponses(companyId: string, formId: string, count: number): Promise<void> {
  await t.ctx.pool.query(
    `INSERT INTO responses (id, company_id, form_id, created_at)
     SELECT gen_random_uuid(), $1, $2, now() FROM generate_series(1, $3)`,
    [companyId, formId, count],
  );
}

describe('GET /v1/forms', () => {
  it('lists items exactly as the spec shows them, newest first, with offset meta', async () => {
    const { company, token } = await t.tenant();
    const older = await importInto(company.id, definition('older', { settings: { isPublic: true, requiresInvite: true } }));
    t.clock.advance(1_000);
    const newer = await importInto(company.id, definition('newer', { settings: { isClosed: true } }));
    await insertResponses(company.id, older.id, 3);

    const res = await t.get(token, '/v1/forms');
    expect(res.statusCode).toBe(200);
    const createdOlder = new Date(t.clock.now().getTime() - 1_000).toISOString();
    expect(res.json()).toEqual({
      success: true,
      data: [
        {
          id: newer.id,
          name: 'Form newer',
          slug: 'newer',
          isPublic: false,
          isClosed: true,
          requiresInvite: false,
          questionCount: 1,
          responseCount: 0,
          createdAt: t.clock.now().toISOString(),
          updatedAt: t.clock.now().toISOString(),
        },
        {
          id: older.id,
          name: 'Form older',
          slug: 'older',
          isPublic: true,
          isClosed: false,
          requiresInvite: true,
          questionCount: 1,
          responseCount: 3,
          createdAt: createdOlder,
          updatedAt: createdOlder,
        },
      ],
      meta: { page: 1, limit: 20, total: 2, totalPages: 1 },
    });
  });

  it('pages with page and limit, breaks createdAt ties by id descending, and keeps the total past the end', async () => {
    const { company, token } = await t.tenant();
    const ids: string[] = [];
    for (const slug of ['a', 'b', 'c', 'd', 'e']) ids.push((await importInto(company.id, definition(slug))).id);
    const expected = [...ids].sort().reverse();

    const pages = [];
    for (const page of [1, 2, 3]) {
      const res = await t.get(token, `/v1/forms?page=${page}&limit=2`);
      expect(res.statusCode).toBe(200);
      expect(res.json().meta).toEqual({ page, limit: 2, total: 5, totalPages: 3 });
      pages.push(...res.json().data.map((item: { id: string }) => item.id));
    }
    expect(pages).toEqual(expected);

    const past = await t.get(token, '/v1/forms?page=9&limit=2');
    expect(past.statusCode).toBe(200);
    expect(past.json()).toEqual({ success: true, data: [], meta: { page: 9, limit: 2, total: 5, totalPages: 3 } });
  });

  it('answers an empty company with an empty page and total 0', async () => {
    const { token } = await t.tenant();
    expect((await t.get(token, '/v1/forms')).json()).toEqual({ success: true, data: [], meta: { page: 1, limit: 20, total: 0, totalPages: 0 } });
  });

  it('shows only the key’s company', async () => {
    const mine = await t.tenant();
    const other = await t.tenant();
    await importInto(other.company.id, definition('theirs'));
    expect((await t.get(mine.token, '/v1/forms')).json().meta.total).toBe(0);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=2.5', 'limit'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=x', 'page'],
    ['cursor=abc', 'cursor'],
    ['status=open', 'status'],
  ])('answers %s with VALIDATION_ERROR naming %s', async (query, path) => {
    const { token } = await t.tenant();
    const res = await t.get(token, `/v1/forms?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ path })] } } });
  });

  it('follows responses as they are inserted and deleted', async () => {
    const { company, token } = await t.tenant();
    const form = await importInto(company.id, definition('counted'));
    await insertResponses(company.id, form.id, 4);
    await insertResponses(company.id, form.id, 1);
    await t.ctx.pool.query('DELETE FROM responses WHERE id IN (SELECT id FROM responses WHERE form_id = $1 LIMIT 2)', [form.id]);
    expect((await t.get(token, '/v1/forms')).json().data[0].responseCount).toBe(3);
    expect((await findForm(t.ctx.db, t.ctx, { companyId: company.id, id: form.id }))!.responseCount).toBe(3);
  });
});

describe('GET /v1/forms/{id}', () => {
  it('answers the detail: sections, questions, options for every question, rows and columns on MATRIX', async () => {
    const { company, token } = await t.tenant();
    const { id } = await importInto(company.id, {
      slug: 'detail',
      name: 'Detail',
      description: 'not in the detail',
      dims: [{ key: 'campus', kind: 'unit', source: 'answer', question: 'campus' }],
      sections: [
        {
          key: 'one',
          name: 'One',
          questions: [
            { key: 'campus', name: 'Campus?', type: 'SELECT', mandatory: true, options: [{ key: 'N', name: 'North' }, { key: 'S', name: 'South' }] },
            { key: 'note', name: 'Note', type: 'TEXT', description: 'internal' },
          ],
        },
        {
          key: 'two',
          name: 'Two',
          visibleIf: { question: 'campus', equals: 'N' },
          questions: [{ key: 'grid', name: 'Grid', type: 'MATRIX', rows: [{ key: 'r1', name: 'Row 1' }], columns: [{ key: 'c1', name: 'Col 1' }, { key: 'c2', name: 'Col 2' }] }],
        },
      ],
    });
    const { content } = (await findForm(t.ctx.db, t.ctx, { companyId: company.id, id }))!;
    const [campus, note] = content.sections[0].questions;
    const grid = content.sections[1].questions[0];

    const res = await t.get(token, `/v1/forms/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        id,
        name: 'Detail',
        content: {
          sections: [
            {
              id: content.sections[0].id,
              name: 'One',
              questions: [
                {
                  id: campus.id,
                  name: 'Campus?',
                  type: 'SELECT',
                  mandatory: true,
                  options: [
                    { id: campus.options![0].id, name: 'North', order: 0 },
                    { id: campus.options![1].id, name: 'South', order: 1 },
                  ],
                },
                { id: note.id, name: 'Note', type: 'TEXT', mandatory: false, options: [] },
              ],
            },
            {
              id: content.sections[1].id,
              name: 'Two',
              questions: [
                {
                  id: grid.id,
                  name: 'Grid',
                  type: 'MATRIX',
                  mandatory: false,
                  options: [],
                  rows: [{ id: grid.rows![0].id, name: 'Row 1', order: 0 }],
                  columns: [
                    { id: grid.columns![0].id, name: 'Col 1', order: 0 },
                    { id: grid.columns![1].id, name: 'Col 2', order: 1 },
                  ],
                },
              ],
            },
          ],
        },
      },
    });
  });

  it('answers 404 NOT_FOUND for a non-UUID id and for an unknown id alike', async () => {
    const { token } = await t.tenant();
    for (const id of ['not-a-uuid', '019a2f4e-7c1d-7b3a-9f00-5d1e2a3b4c5d', 'detail']) {
      const res = await t.get(token, `/v1/forms/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, error: { code: 'NOT_FOUND', message: 'Form not found.', details: null } });
    }
  });
});
