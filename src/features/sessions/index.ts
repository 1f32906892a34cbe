/** The sessions feature's public face: what other features, the CLI and the app use (docs/CONTRIBUTING.md). */
export { authenticateSession, type PanelSession } from './authenticate-session.js';
export { createUser, CreateUserInput, Email } from './create-user.js';
export { describeSession } from './describe-session.js';
export { Session } from './panel-schemas.js';
export { checkSecondFactor, type SecondFactorDeps } from './second-factor.js';
export { hashSecret, mintSecret, SECRET_RE } from './session-token.js';
export { SIGN_IN_REFUSED } from './sign-in.js';
export { startSession } from './start-session.js';
export { hashPassword, passwordMatches, PASSWORD_MIN, PASSWORD_MAX } from './password.js';
export { users, sessions } from './table.js';
