import { InvalidArgumentError, type Command } from 'commander';
import type { AddGoalRuleResult } from '../../features/goals/add-goal-rule.js';
import type { GoalRule } from '../../features/goals/goal-rule.js';
import { table } from '../output.js';
import { companyIdForSlug, runCommand, type CliRuntime, type CommandInput } from '../runtime.js';

/** Digits only; the range (1 to 2^31 - 1) is the service's to check, with its VALIDATION_ERROR. */
function parseGoal(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

export async function goalAdd(rt: CliRuntime, { opts }: CommandInput): Promise<AddGoalRuleResult> {
  const { addGoalRule } = await import('../../features/goals/add-goal-rule.js');
  return addGoalRule(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), form: opts.form, goal: opts.goal });
}

export async function goalList(rt: CliRuntime, { opts }: CommandInput): Promise<GoalRule[]> {
  const { listGoalRules } = await import('../../features/goals/list-goal-rules.js');
  return listGoalRules(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), form: opts.form });
}

export async function goalReset(rt: CliRuntime, { args, opts }: CommandInput): Promise<GoalRule> {
  const { resetGoalRule } = await import('../../features/goals/reset-goal-rule.js');
  return resetGoalRule(rt.ctx.db, rt.ctx, { companyId: await companyIdForSlug(rt, opts.company), ruleId: args[0] });
}

export function describeGoalAdd({ rule, responseCount }: AddGoalRuleResult): string {
  const line = `added goal ${rule.goal} on form ${rule.formSlug} (rule ${rule.id}); the form has ${responseCount} response(s)`;
  if (responseCount < rule.goal) return line;
  // A goal fires when the count goes from below it to at least it (contract decisions, "Goals").
  return `${line}\nnote: the form is already at or past this goal, so the rule fires only if the count falls below ${rule.goal} and reaches it again`;
}

export const describeGoalList = (rules: GoalRule[]) =>
  table(
    rules.map((rule) => ({ ...rule, reachedAt: rule.reachedAt?.toISOString() ?? null, createdAt: rule.createdAt.toISOString() })),
    ['id', 'formSlug', 'goal', 'armed', 'reachedCount', 'reachedAt', 'createdAt'],
  );

export const describeGoalReset = (rule: GoalRule) => `re-armed rule ${rule.id} (goal ${rule.goal} on form ${rule.formSlug}): it fires at the next crossing`;

/** `quorum form goal add|list|reset`: the alert rules whose crossing emits form.goal_reached. */
export function registerFormGoalCommands(form: Command): void {
  const goal = form.command('goal').description('alert rules: form.goal_reached fires once when the response count reaches the goal, then the rule waits for a reset');
  goal
    .command('add')
    .description('watch a form for a response count (the rule starts armed)')
    .requiredOption('--company <slug>', 'company slug')
    .requiredOption('--form <idOrSlug>', 'id or slug of the form')
    .requiredOption('--goal <n>', 'response count to reach (1 or more)', parseGoal)
    .action(runCommand(goalAdd, describeGoalAdd));
  goal
    .command('list')
    .description("list the company's alert rules, armed or reached")
    .requiredOption('--company <slug>', 'company slug')
    .option('--form <idOrSlug>', 'only the rules of this form')
    .action(runCommand(goalList, describeGoalList));
  goal
    .command('reset')
    .description('re-arm a rule that fired, so that the next crossing of its goal fires again')
    .requiredOption('--company <slug>', 'company slug')
    .argument('<ruleId>', 'id of the rule (see: quorum form goal list)')
    .action(runCommand(goalReset, describeGoalReset));
}
