import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createSurvey } from '../../../test/responses.js';
import { LOW_RATING_FLOW, respond } from '../../../test/treatments.js';
import { addFlow } from '../../features/treatments/flows.js';
import { addHoliday, listHolidays } from '../../features/treatments/holidays.js';
import { describeError } from '../output.js';
import type { CliRuntime } from '../runtime.js';
import { caseText, listText, treatmentAdvance, treatmentClose, treatmentList, treatmentReopen } from './treatment.js';
import { Command } from 'commander';
import { registerFormFlowCommands } from './form-flow.js';

let t: TestApp;
let rt: CliRuntime;
beforeAll(async () => {
  t = await startTestApp();
  rt = { ctx: t.ctx } as unknown as CliRuntime;
});
afterAll(async () => t?.close());

describe('quorum treatment', () => {
  it('lists, advances, closes and reopens cases by id, with or without --company', async () => {
    const company = await t.company();
    const survey = await createSurvey(t, company.id);
    await addFlow(t.ctx.db, t.ctx, { companyId: company.id, formIdOrSlug: survey.form.id, file: LOW_RATING_FLOW });
    await respond(t, survey, 1, '2026-03-02T09:00:00.000Z');
    await respond(t, survey, 2, '2026-03-02T09:00:00.000Z');
    const page = await treatmentList(rt, { args: [], opts: { company: company.slug } });
    expect(listText(page)).toMatch(/2 case\(s\)/);
    const [second, first] = page.items;
    const advanced = await treatmentAdvance(rt, { args: [first.id], opts: {} });
    expect(caseText(advanced)).toBe(`case #1 (${first.id}): open, step 2/2 Report back, due 2026-03-05T23:59:59.999Z`);
    const closed = await treatmentClose(rt, { args: [second.id], opts: { company: company.slug, outcome: 'other', reason: 'Moved away' } });
    expect(caseText(closed)).toBe(`case #2 (${second.id}): closed, step 1/2 Call the respondent, outcome other (Moved away)`);
    expect((await treatmentList(rt, { args: [], opts: { company: company.slug, status: 'closed' } })).items.map((c) => c.number)).toEqual([2]);
    expect((await treatmentList(rt, { args: [], opts: { company: company.slug, form: 'nope' } })).items).toEqual([]);
    await treatmentReopen(rt, { args: [second.id], opts: {} });
    const other = await t.company();
    const message = (p: Promise<unknown>) => p.catch((e) => describeError(e).message);
    await expect(message(treatmentAdvance(rt, { args: [first.id], opts: { company: other.slug } }))).resolves.toMatch(/No such case/);
    await expect(message(treatmentAdvance(rt, { args: ['0190a000-0000-7000-8000-000000000000'], opts: {} }))).resolves.toMatch(/No case with id/);
  });

  it('registers flow add|list|remove under form; holidays list oldest first', async () => {
    // The actions open their own runtime from the environment; here only the command tree is checked.
    const form = new Command('form');
    registerFormFlowCommands(form);
    expect(form.commands.map((c) => c.name())).toEqual(['flow']);
    expect(form.commands[0].commands.map((c) => c.name())).toEqual(['add', 'list', 'remove']);
    const company = await t.company();
    await addHoliday(t.ctx.db, t.ctx, { companyId: company.id, day: '2026-12-25', name: 'Christmas' });
    await addHoliday(t.ctx.db, t.ctx, { companyId: company.id, day: '2026-01-01', name: 'New year' });
    expect(await listHolidays(t.ctx.db, t.ctx, { companyId: company.id })).toEqual([{ day: '2026-01-01', name: 'New year' }, { day: '2026-12-25', name: 'Christmas' }]);
  });
});
