import type { RateLimiter } from '../../app/rate-limiter.js';
import { ApiError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';

/** Failed sign-ins allowed per rolling minute from one client address, and against one account. */
export const FAILED_SIGN_INS_PER_ADDRESS = 20;
export const FAILED_SIGN_INS_PER_ACCOUNT = 5;

export type BudgetDeps = { limiter: RateLimiter; clock: Clock };

/** The two budgets of an attempt; the account is the typed address, so unknown ones are limited alike. */
function budgets(input: { ip: string | null; email: string }) {
  return [
    { key: `signin:ip:${input.ip ?? 'unknown'}`, limit: FAILED_SIGN_INS_PER_ADDRESS },
    { key: `signin:account:${input.email.trim().toLowerCase()}`, limit: FAILED_SIGN_INS_PER_ACCOUNT },
  ];
}

/** Refuses with 429 (and retry-after) while either budget is spent; counts nothing. */
export async function checkSignInBudget(deps: BudgetDeps, input: { ip: string | null; email: string }): Promise<void> {
  const nowMs = deps.clock.now().getTime();
  for (const { key, limit } of budgets(input)) {
    const decision = await deps.limiter.peek(key, limit, nowMs);
    if (!decision.allowed) {
      throw new ApiError('RATE_LIMITED', `Too many failed sign-ins. Retry in ${decision.resetSeconds} s.`, null, { 'retry-after': String(decision.resetSeconds) });
    }
  }
}

/** Counts one failure against both budgets. */
export async function spendSignInBudget(deps: BudgetDeps, input: { ip: string | null; email: string }): Promise<void> {
  const nowMs = deps.clock.now().getTime();
  for (const { key, limit } of budgets(input)) await deps.limiter.hit(key, limit, nowMs);
}

/** Reset mails allowed per rolling minute from one address and to one account: enough for a person, too few to flood an inbox. */
export const RESETS_PER_MINUTE = 3;

/** Counts one reset request against the address's and the account's budgets; past either, 429. */
export async function spendResetBudget(deps: BudgetDeps, input: { ip: string | null; email: string }): Promise<void> {
  const nowMs = deps.clock.now().getTime();
  for (const key of [`reset:ip:${input.ip ?? 'unknown'}`, `reset:account:${input.email.trim().toLowerCase()}`]) {
    const decision = await deps.limiter.hit(key, RESETS_PER_MINUTE, nowMs);
    if (!decision.allowed) throw new ApiError('RATE_LIMITED', `Too many reset requests. Retry in ${decision.resetSeconds} s.`, null, { 'retry-after': String(decision.resetSeconds) });
  }
}
