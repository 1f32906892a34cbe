import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliRuntime } from '../../../test/cli.js';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createStatsSurvey, loadSurvey, record, statisticsForm } from '../../../test/statistics.js';
import { importForm } from '../../features/forms/import-form.js';
import { describeError } from '../output.js';
import type { CliRuntime } from '../runtime.js';
import { deleteResponseCommand } from './response.js';
import { describeStats, statsCommand } from './stats.js';

let t: TestApp;
let rt: CliRuntime;
beforeAll(async () => {
  t = await startTestApp();
  rt = cliRuntime(t);
});
afterAll(async () => t?.close());

describe('quorum stats', () => {
  it('prints the figures with bars for option shares, and a report per group', async () => {
    const company = await t.company();
    const s = await createStatsSurvey(t, company.id, { slug: 'cli-stats' });
    await record(t, s, [
      { at: '2026-03-01T09:00:00.000Z', dims: { course: 'math' }, answers: { [s.q.pick.id]: s.o.pick.A, [s.q.stars.id]: 5, [s.q.nps.id]: 10 } },
      { at: '2026-03-01T10:00:00.000Z', dims: { course: 'math' }, answers: { [s.q.pick.id]: s.o.pick.A, [s.q.stars.id]: 4, [s.q.nps.id]: 2 } },
      { at: '2026-03-02T09:00:00.000Z', dims: { course: 'hist' }, answers: { [s.q.pick.id]: s.o.pick.B, [s.q.stars.id]: 4 } },
      { at: '2026-03-02T10:00:00.000Z', dims: { course: 'hist' }, answers: { [s.q.pick.id]: s.o.pick.A } },
    ]);
    const whole = await statsCommand(rt, { args: [], opts: { company: company.slug, form: 'cli-stats' } });
    expect(whole.statistics).toMatchObject({ responseCount: 4 });
    const text = describeStats(whole);
    expect(text).toContain('4 responses (4 completed), 2026-03-01T09:00:00.000Z .. 2026-03-02T10:00:00.000Z');
    expect(text).toContain(`Option A  ${'█'.repeat(18)}${'·'.repeat(6)}  75.0%  3`);
    expect(text).toContain('mean 4.33  median 4  min 4  max 5');
    expect(text).toContain('NPS 0 (promoters 1, passives 0, detractors 1)');

    const filtered = await statsCommand(rt, { args: [], opts: { company: company.slug, form: s.form.id, from: '2026-03-02', dim: { course: 'hist' } } });
    expect(describeStats(filtered)).toMatch(/^form cli-stats; period 2026-03-02 to …\n2 responses/);

    const report = await statsCommand(rt, { args: [], opts: { company: company.slug, form: 'cli-stats', groupBy: { kind: 'dim', key: 'course' } } });
    const lines = describeStats(report).split('\n');
    expect(lines[0]).toBe('form cli-stats by dim.course: 2 group(s)');
    expect(lines).toContain('== hist');
    expect(lines).toContain('== math');
  });

  it('prints whole-number bins and median for answers on a whole-number grid', async () => {
    const company = await t.company();
    const definition = statisticsForm('cli-whole');
    definition.sections[0].questions.push({ key: 'missed', name: 'Missed', type: 'NUMBER', min: 0, max: 200, step: 1 });
    const { id } = await importForm(t.ctx.db, t.ctx, { companyId: company.id, rawJson: definition });
    const s = await loadSurvey(t, company.id, id);
    await record(t, s, [1, 1, 2, 101, 102].map((value) => ({ at: '2026-03-01T09:00:00.000Z', answers: { [s.q.missed.id]: value } })));
    const text = describeStats(await statsCommand(rt, { args: [], opts: { company: company.slug, form: 'cli-whole' } }));
    expect(text).toContain('mean 41.40  median 2  min 1  max 102');
    const bins = text.split('\n').slice(text.split('\n').findIndex((line) => line.includes('[missed, NUMBER]')) + 2).map((line) => line.trim().split(/\s+/)[0]);
    expect(bins).toEqual(['1', '2', '101..102']);
  });

  it('says which company or form is missing', async () => {
    const company = await t.company();
    await expect(statsCommand(rt, { args: [], opts: { company: 'no-such-company', form: 'x' } }).catch((e) => describeError(e).message)).resolves.toBe(
      'no company with slug "no-such-company" (see: quorum company list)',
    );
    await expect(statsCommand(rt, { args: [], opts: { company: company.slug, form: 'nope' } }).catch((e) => describeError(e))).resolves.toMatchObject({
      code: 'NOT_FOUND', // as an unknown company is
      message: expect.stringMatching(/no form "nope"/),
    });
  });
});

describe('quorum response delete', () => {
  it('deletes the response and the statistics follow at once; another company\'s response or a bad id is not found', async () => {
    const company = await t.company();
    const s = await createStatsSurvey(t, company.id, { slug: 'cli-delete' });
    const [kept, gone] = await record(t, s, [
      { at: '2026-03-01T09:00:00.000Z', answers: { [s.q.stars.id]: 5 } },
      { at: '2026-03-01T10:00:00.000Z', answers: { [s.q.stars.id]: 1 } },
    ]);
    await expect(deleteResponseCommand(rt, { args: [gone], opts: { company: company.slug } })).resolves.toEqual({ id: gone, deleted: true });
    const after = await statsCommand(rt, { args: [], opts: { company: company.slug, form: 'cli-delete' } });
    expect(describeStats(after)).toContain('1 responses');
    expect(describeStats(after)).toContain('min 5  max 5');
    const { rows } = await t.ctx.pool.query('SELECT id FROM responses WHERE form_id = $1', [s.form.id]);
    expect(rows.map((r) => r.id)).toEqual([kept]);

    const other = await t.company();
    const refused = (args: string[], slug: string) => deleteResponseCommand(rt, { args, opts: { company: slug } }).catch((e) => describeError(e));
    await expect(refused([kept], other.slug)).resolves.toMatchObject({ code: 'NOT_FOUND' });
    await expect(refused([gone], company.slug)).resolves.toMatchObject({ code: 'NOT_FOUND' });
    await expect(refused(['not-a-uuid'], company.slug)).resolves.toMatchObject({ code: 'NOT_FOUND' });
    expect((await t.ctx.pool.query('SELECT 1 FROM responses WHERE id = $1', [kept])).rowCount).toBe(1);
  });
});
