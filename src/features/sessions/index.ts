/** The sessions feature's public face: what other features, the CLI and the app use (docs/CONTRIBUTING.md). */
export { authenticateSession, type PanelSession } from './authenticate-session.js';
export { createUser, CreateUserInput, Email } from './create-user.js';
export { createPanelUser, type CreatePanelUserInput } from './create-panel-user.js';
export { describeSession } from './describe-session.js';
export { endMemberSessions } from './end-session.js';
export { listUsers } from './list-users.js';
export { removeUser } from './remove-user.js';
export { issueLink, consumeLink, linkUrl, LINK_TTL_MS } from './one-time-link.js';
export { Session } from './panel-schemas.js';
export { hashPassword, passwordMatches, PASSWORD_MIN, PASSWORD_MAX } from './password.js';
export { checkSecondFactor, type SecondFactorDeps } from './second-factor.js';
export { SIGN_IN_REFUSED } from './sign-in.js';
export { takeSignInAttempt, type BudgetDeps } from './sign-in-budget.js';
export { startSession } from './start-session.js';
export { users, sessions, oneTimeLinks } from './table.js';
export { ensureDemoOwner, demoPanelLines, DEMO_OWNER_EMAIL } from './ensure-demo-owner.js';
