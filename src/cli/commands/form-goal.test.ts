import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cliTestApp } from '../../../test/cli.js';
import { addResponses, createSurvey } from '../../../test/responses.js';
import { describeError } from '../output.js';
import { describeGoalAdd, describeGoalList, describeGoalReset, goalAdd, goalList, goalReset } from './form-goal.js';

const cli = cliTestApp();

const failure = (promise: Promise<unknown>) => promise.then(() => 'no failure', (err: unknown) => describeError(err));

describe('quorum form goal', () => {
  it('adds, lists and resets the alert rules of a form', async () => {
    const company = await cli.t.company();
    const survey = await createSurvey(cli.t, company.id);
    await addResponses(cli.t, survey, 3);

    const ten = await goalAdd(cli.rt, { args: [], opts: { company: company.slug, form: 'course-survey', goal: 10 } });
    expect(describeGoalAdd(ten)).toBe(`added goal 10 on form course-survey (rule ${ten.rule.id}); the form has 3 response(s)`);
    const two = await goalAdd(cli.rt, { args: [], opts: { company: company.slug, form: survey.form.id, goal: 2 } });
    expect(describeGoalAdd(two).split('\n')).toEqual([
      `added goal 2 on form course-survey (rule ${two.rule.id}); the form has 3 response(s)`,
      'note: the form is already at or past this goal, so the rule fires only if the count falls below 2 and reaches it again',
    ]);

    const listed = await goalList(cli.rt, { args: [], opts: { company: company.slug } });
    expect(listed.map((rule) => [rule.goal, rule.armed])).toEqual([[2, true], [10, true]]);
    expect(await goalList(cli.rt, { args: [], opts: { company: company.slug, form: 'course-survey' } })).toEqual(listed);
    const lines = describeGoalList(listed).split('\n');
    expect(lines[0].split(/\s+/)).toEqual(['id', 'formSlug', 'goal', 'armed', 'reachedCount', 'reachedAt', 'createdAt']);
    expect(lines[1].split(/\s+/)).toEqual([two.rule.id, 'course-survey', '2', 'true', '-', '-', '2026-03-02T09:00:00.000Z']);

    // Reaching the goal disarms the rule; reset re-arms it.
    await addResponses(cli.t, survey, 7);
    const reached = (await goalList(cli.rt, { args: [], opts: { company: company.slug } })).find((rule) => rule.goal === 10)!;
    expect(reached).toMatchObject({ armed: false, reachedCount: 10 });
    expect(describeGoalList([reached]).split('\n')[1].split(/\s+/)).toEqual([ten.rule.id, 'course-survey', '10', 'false', '10', '2026-03-02T09:00:00.000Z', '2026-03-02T09:00:00.000Z']);
    const reset = await goalReset(cli.rt, { args: [ten.rule.id], opts: { company: company.slug } });
    expect(reset).toMatchObject({ id: ten.rule.id, armed: true, reachedCount: 10 });
    expect(describeGoalReset(reset)).toBe(`re-armed rule ${ten.rule.id} (goal 10 on form course-survey): it fires at the next crossing`);
  });

  it('names what is wrong: the goal, an unknown form or rule, another company', async () => {
    const company = await cli.t.company();
    const survey = await createSurvey(cli.t, company.id);
    expect(await failure(goalAdd(cli.rt, { args: [], opts: { company: company.slug, form: 'course-survey', goal: 0 } }))).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'The request is invalid.\n  goal: must be a whole number from 1 to 2147483647',
    });
    expect(await failure(goalAdd(cli.rt, { args: [], opts: { company: company.slug, form: 'nope', goal: 5 } }))).toMatchObject({ code: 'NOT_FOUND', message: 'Form not found.' });
    expect(await failure(goalList(cli.rt, { args: [], opts: { company: company.slug, form: 'nope' } }))).toMatchObject({ code: 'NOT_FOUND' });
    const { rule } = await goalAdd(cli.rt, { args: [], opts: { company: company.slug, form: survey.form.id, goal: 5 } });
    const other = await cli.t.company();
    expect(await failure(goalReset(cli.rt, { args: [rule.id], opts: { company: other.slug } }))).toMatchObject({ code: 'NOT_FOUND', message: 'Alert rule not found.' });
    expect(await failure(goalAdd(cli.rt, { args: [], opts: { company: other.slug, form: survey.form.id, goal: 5 } }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await goalList(cli.rt, { args: [], opts: { company: other.slug } })).toEqual([]);
    expect(describeGoalList([])).toBe('(none)');
  });
});

// Spawns the CLI once to prove the group is wired under `form`; on a loaded machine that takes seconds.
it('runs as quorum form goal, refusing a goal that is not a number before touching the database', { timeout: 120_000 }, async () => {
  const company = await cli.t.company();
  await createSurvey(cli.t, company.id);
  const quorum = (args: string[]) =>
    promisify(execFile)(join(process.cwd(), 'node_modules', '.bin', 'tsx'), [join(process.cwd(), 'src', 'cli', 'main.ts'), ...args], {
      env: { ...process.env, DATABASE_URL: cli.t.databaseUrl },
    }).then(
      ({ stdout }) => ({ code: 0, out: stdout }),
      (err: { code: number; stderr: string }) => ({ code: err.code, out: err.stderr }),
    );
  expect(await quorum(['form', 'goal', 'add', '--company', company.slug, '--form', 'course-survey', '--goal', 'ten'])).toMatchObject({
    code: 1,
    out: expect.stringMatching(/^error: option '--goal <n>' argument 'ten' is invalid\. must be a whole number\n/),
  });
  const added = await quorum(['form', 'goal', 'add', '--company', company.slug, '--form', 'course-survey', '--goal', '25']);
  expect(added).toMatchObject({ code: 0, out: expect.stringMatching(/^added goal 25 on form course-survey \(rule [0-9a-f-]{36}\); the form has 0 response\(s\)\n$/) });
});
