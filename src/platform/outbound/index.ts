/** The outbound feature's public face: what other features may use (docs/CONTRIBUTING.md). */
export { ASYNC_COMMIT } from './async-commit.js';
export { type BacklogProbe } from './backlog-probe.js';
export { targetUrlErrors } from './check-target-url.js';
export { type ClaimRequest, type LogFn, type OutboundItem, type OutboundKind } from './kind.js';
export { startOutboundLoop, type OutboundLoop, type OutboundLoopOptions } from './loop.js';
export { maxAttempts, parseRetryAfter, retryDelay, type RetrySchedule } from './retry-schedule.js';
export { outboundDispatcher, targetRefusal } from './target-guard.js';
export { wakeSleepers } from './wake-sleepers.js';
