/** The sessions feature's public face: what other features, the CLI and the app use (docs/CONTRIBUTING.md). */
export { authenticateSession, type PanelSession } from './authenticate-session.js';
export { createUser, CreateUserInput } from './create-user.js';
export { hashPassword, PASSWORD_MIN, PASSWORD_MAX } from './password.js';
export { users, sessions } from './table.js';
