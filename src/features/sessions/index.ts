/** The sessions feature's public face: what other features, the CLI and the app use (docs/CONTRIBUTING.md). */
export { authenticateSession, type PanelSession } from './authenticate-session.js';
export { createUser, CreateUserInput } from './create-user.js';
export { createPanelUser, type CreatePanelUserInput } from './create-panel-user.js';
export { listUsers } from './list-users.js';
export { removeUser } from './remove-user.js';
export { issueLink, consumeLink, linkUrl, LINK_TTL_MS } from './one-time-link.js';
export { hashPassword, PASSWORD_MIN, PASSWORD_MAX } from './password.js';
export { users, sessions, oneTimeLinks } from './table.js';
export { ensureDemoOwner, demoPanelLines, DEMO_OWNER_EMAIL } from './ensure-demo-owner.js';
