import { ApiError } from '../../lib/errors.js';
import type { Clock } from '../../lib/clock.js';

/** Failed sign-ins allowed per rolling minute from one client address, and against one account. */
export const FAILED_SIGN_INS_PER_ADDRESS = 20;
export const FAILED_SIGN_INS_PER_ACCOUNT = 5;

/** The context's sliding-log limiter (src/platform/app/rate-limiter.ts, memory or Redis), as much of it as a budget uses. */
interface Limiter {
  hit(key: string, limit: number, nowMs: number): Promise<{ allowed: boolean; resetSeconds: number }>;
  take(key: string, limit: number, nowMs: number): Promise<{ allowed: boolean; resetSeconds: number; ticket: string | null }>;
  release(key: string, ticket: string): Promise<void>;
}

export type BudgetDeps = { limiter: Limiter; clock: Clock };

/** The two budgets of an attempt; the account is the typed address, so unknown ones are limited alike. */
function budgets(input: { ip: string | null; email: string }) {
  return [
    { key: `signin:ip:${input.ip ?? 'unknown'}`, limit: FAILED_SIGN_INS_PER_ADDRESS },
    { key: `signin:account:${input.email.trim().toLowerCase()}`, limit: FAILED_SIGN_INS_PER_ACCOUNT },
  ];
}

/** An attempt holding one unit of each budget: a failure keeps them spent, `release()` gives them back. */
export interface SignInAttempt {
  release(): Promise<void>;
}

/**
 * Reserves one failure of the address's and the account's budgets before the guess is checked, so
 * parallel guesses cannot all pass a check made before any is counted; 429 (retry-after) when either is spent.
 */
export async function takeSignInAttempt(deps: BudgetDeps, input: { ip: string | null; email: string }): Promise<SignInAttempt> {
  return takeUnits(deps, budgets(input));
}

/** The account's budget alone, for a signed-in person retyping their password (My account): the same guesses, the same limit. */
export async function takeAccountAttempt(deps: BudgetDeps, input: { email: string }): Promise<SignInAttempt> {
  return takeUnits(deps, budgets({ ip: null, email: input.email }).slice(1));
}

async function takeUnits(deps: BudgetDeps, wanted: Array<{ key: string; limit: number }>): Promise<SignInAttempt> {
  const nowMs = deps.clock.now().getTime();
  const taken: Array<{ key: string; ticket: string }> = [];
  const release = async () => {
    await Promise.all(taken.splice(0).map(({ key, ticket }) => deps.limiter.release(key, ticket)));
  };
  for (const { key, limit } of wanted) {
    const decision = await deps.limiter.take(key, limit, nowMs);
    if (!decision.allowed || decision.ticket === null) {
      await release();
      throw new ApiError('RATE_LIMITED', `Too many failed sign-ins. Retry in ${decision.resetSeconds} s.`, null, { 'retry-after': String(decision.resetSeconds) });
    }
    taken.push({ key, ticket: decision.ticket });
  }
  return { release };
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
