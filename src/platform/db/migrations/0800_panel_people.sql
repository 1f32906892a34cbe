-- The panel's people: users (one account across companies), their memberships (user × company with
-- a set of permissions), and their sessions (only the token's SHA-256 is stored).

CREATE TABLE users (
  id             uuid PRIMARY KEY,
  email          text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  name           text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- argon2id (PHC string); null until the person sets a password through a one-time link
  password_hash  text,
  language       text CHECK (language IN ('en', 'pt-BR', 'es')),
  created_at     timestamptz(3) NOT NULL,
  updated_at     timestamptz(3) NOT NULL
);
-- One account per address across every company, whatever its case.
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE memberships (
  company_id   uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id      uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- a subset of the permission vocabulary (src/features/members/permissions.ts); an owner holds all
  permissions  text[] NOT NULL DEFAULT '{}',
  owner        boolean NOT NULL DEFAULT false,
  created_at   timestamptz(3) NOT NULL,
  updated_at   timestamptz(3) NOT NULL,
  PRIMARY KEY (company_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

CREATE TABLE sessions (
  id            uuid PRIMARY KEY,
  user_id       uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash    bytea NOT NULL UNIQUE,
  -- the x-csrf-token every state-changing request of this session carries
  csrf_token    text NOT NULL,
  -- the company the session works in; null when the user belongs to none
  company_id    uuid REFERENCES companies(id) ON DELETE SET NULL,
  ip            text,
  created_at    timestamptz(3) NOT NULL,
  last_seen_at  timestamptz(3) NOT NULL,
  -- absolute expiry; the idle expiry is last_seen_at + 12 h
  expires_at    timestamptz(3) NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Who did what, when and from where: written in the transaction of the act itself.
CREATE TABLE audit_records (
  id             uuid PRIMARY KEY,
  -- the company the act concerns; null when none (a failed sign-in for an unknown address)
  company_id     uuid REFERENCES companies(id) ON DELETE CASCADE,
  -- the person who acted (kept when the account is removed, hence no foreign key) and the address they gave
  actor_user_id  uuid,
  actor_email    text CHECK (length(actor_email) <= 320),
  action         text NOT NULL CHECK (action ~ '^[a-z][a-z0-9_.]{0,63}$'),
  details        jsonb NOT NULL DEFAULT '{}'::jsonb,
  ip             text,
  created_at     timestamptz(3) NOT NULL
);
CREATE INDEX audit_records_company_idx ON audit_records (company_id, created_at DESC, id DESC);
