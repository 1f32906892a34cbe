import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { addResponses, createSurvey, type Survey } from '../../../test/responses.js';
import { recordResponse } from '../responses/record-response.js';
import { deleteResponse } from '../statistics/delete-response.js';
import { addGoalRule } from './add-goal-rule.js';
import { listGoalRules } from './list-goal-rules.js';
import { resetGoalRule } from './reset-goal-rule.js';

let t: TestApp;
beforeAll(async () => {
  // Room for real contention: 20 transactions in flight at once.
  t = await startTestApp({ poolSize: 20 });
});
afterAll(async () => t?.close());

/** The company's form.goal_reached events through the API, oldest first. */
async function goalEvents(token: string) {
  const res = await t.get(token, '/v1/events?type=form.goal_reached&limit=100');
  expect(res.statusCode).toBe(200);
  return (res.json().data as { data: Record<string, unknown> }[]).map((event) => event.data).reverse();
}

const submit = (survey: Survey) => t.ctx.db.transaction((tx) => recordResponse(tx, t.ctx, { form: survey.form, answers: { [survey.ratingId]: 4 } }));
/** One submission a second later than the last, so events list in the order they fired. */
function respond(survey: Survey) {
  t.clock.advance(1000);
  return submit(survey);
}
const addGoal = (companyId: string, survey: Survey, goal: number) => addGoalRule(t.ctx.db, t.ctx, { companyId, form: survey.form.slug, goal });

async function ruleOf(companyId: string, id: string) {
  return (await listGoalRules(t.ctx.db, t.ctx, { companyId })).find((rule) => rule.id === id)!;
}

describe('form.goal_reached', () => {
  it('fires exactly once, with the count at the crossing, when 100 concurrent submissions cross a goal of 50', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    const { rule } = await addGoal(company.id, survey, 50);

    await Promise.all(Array.from({ length: 100 }, () => submit(survey)));

    expect(await goalEvents(token)).toEqual([{ formId: survey.form.id, formName: 'Course survey', responseCount: 50, goal: 50, alertRuleId: rule.id }]);
    expect(await ruleOf(company.id, rule.id)).toMatchObject({ armed: false, reachedCount: 50, reachedAt: t.clock.now() });
    const { rows } = await t.ctx.pool.query('SELECT response_count FROM forms WHERE id = $1', [survey.form.id]);
    expect(rows[0].response_count).toBe(100);
  });

  it('fires each rule at its own goal, only for its own form, and the reset rule again at the next crossing', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    const three = (await addGoal(company.id, survey, 3)).rule;
    const five = (await addGoal(company.id, survey, 5)).rule;
    const other = await t.tenant();
    const otherSurvey = await createSurvey(t, other.company.id);
    const otherRule = (await addGoal(other.company.id, otherSurvey, 3)).rule;

    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await respond(survey)).id);
    expect(await goalEvents(token)).toEqual([
      expect.objectContaining({ goal: 3, responseCount: 3, alertRuleId: three.id }),
      expect.objectContaining({ goal: 5, responseCount: 5, alertRuleId: five.id }),
    ]);
    expect(await goalEvents(other.token)).toEqual([]);
    expect((await ruleOf(other.company.id, otherRule.id)).armed).toBe(true);

    // Falling below 3 and reaching it again is a new crossing, but the fired rule is disarmed.
    await t.ctx.db.transaction(async (tx) => {
      for (const id of ids.slice(2)) await deleteResponse(tx, t.ctx, { companyId: company.id, responseId: id });
    });
    await respond(survey);
    expect(await goalEvents(token)).toHaveLength(2);

    // Reset re-arms it: the next crossing (3 → 2 → 3 again) fires with the count at that moment.
    expect(await resetGoalRule(t.ctx.db, t.ctx, { companyId: company.id, ruleId: three.id })).toMatchObject({ id: three.id, armed: true, reachedCount: 3 });
    await respond(survey); // 4: no crossing of 3 (it was already reached)
    expect(await goalEvents(token)).toHaveLength(2);
    await t.ctx.db.transaction((tx) => deleteResponse(tx, t.ctx, { companyId: company.id, responseId: ids[0] }));
    await t.ctx.db.transaction((tx) => deleteResponse(tx, t.ctx, { companyId: company.id, responseId: ids[1] }));
    await respond(survey);
    expect((await goalEvents(token)).slice(2)).toEqual([expect.objectContaining({ goal: 3, responseCount: 3, alertRuleId: three.id })]);
  });

  it('does not fire a rule added when the count had already reached its goal, even after a reset, until the count crosses it', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    const ids = await addResponses(t, survey, 4);
    const added = await addGoal(company.id, survey, 2);
    expect(added).toMatchObject({ responseCount: 4, rule: { goal: 2, armed: true, reachedAt: null, reachedCount: null } });
    const fifth = await respond(survey);
    await resetGoalRule(t.ctx.db, t.ctx, { companyId: company.id, ruleId: added.rule.id });
    await respond(survey);
    expect(await goalEvents(token)).toEqual([]);

    // 6 → 1, then the response that brings it to 2 crosses the goal.
    await t.ctx.db.transaction(async (tx) => {
      for (const id of [...ids, fifth.id]) await deleteResponse(tx, t.ctx, { companyId: company.id, responseId: id });
    });
    expect((await t.ctx.pool.query('SELECT response_count FROM forms WHERE id = $1', [survey.form.id])).rows[0].response_count).toBe(1);
    await respond(survey);
    expect(await goalEvents(token)).toEqual([expect.objectContaining({ goal: 2, responseCount: 2, alertRuleId: added.rule.id })]);
  });

  it('decides with the response: a crossing whose transaction rolls back leaves the rule armed and emits nothing', async () => {
    const { company, token } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    const { rule } = await addGoal(company.id, survey, 1);
    const failed = await t.ctx.db
      .transaction(async (tx) => {
        await recordResponse(tx, t.ctx, { form: survey.form, answers: { [survey.ratingId]: 2 } });
        throw new Error('the caller fails after recording');
      })
      .catch((err: Error) => err.message);
    expect(failed).toBe('the caller fails after recording');
    expect((await ruleOf(company.id, rule.id)).armed).toBe(true);
    expect(await goalEvents(token)).toEqual([]);
    await respond(survey);
    expect(await goalEvents(token)).toEqual([expect.objectContaining({ responseCount: 1, alertRuleId: rule.id })]);
  });
});

describe('alert rules', () => {
  it('refuses goals that are not whole numbers from 1, and forms and rules of another company', async () => {
    const { company } = await t.tenant();
    const survey = await createSurvey(t, company.id);
    for (const goal of [0, -1, 1.5, Number.NaN]) {
      await expect(addGoal(company.id, survey, goal)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ path: 'goal', code: 'invalid_value' })] } });
    }
    await expect(addGoal(company.id, survey, 2 ** 31)).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ path: 'goal', code: 'too_large' })] } });
    const { rule } = await addGoal(company.id, survey, 10);

    const other = await t.company();
    await expect(addGoalRule(t.ctx.db, t.ctx, { companyId: other.id, form: survey.form.id, goal: 3 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(listGoalRules(t.ctx.db, t.ctx, { companyId: other.id, form: survey.form.slug })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(resetGoalRule(t.ctx.db, t.ctx, { companyId: other.id, ruleId: rule.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(resetGoalRule(t.ctx.db, t.ctx, { companyId: company.id, ruleId: 'not-a-uuid' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await listGoalRules(t.ctx.db, t.ctx, { companyId: other.id })).toEqual([]);
    expect(await listGoalRules(t.ctx.db, t.ctx, { companyId: company.id, form: survey.form.id })).toEqual([
      { id: rule.id, formId: survey.form.id, formSlug: survey.form.slug, goal: 10, armed: true, reachedAt: null, reachedCount: null, createdAt: t.clock.now() },
    ]);
  });
});
