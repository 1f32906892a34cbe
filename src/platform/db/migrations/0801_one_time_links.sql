-- One-time links of the panel: set a password (new user, reset), sign in once (the demo's first
-- sign-in), accept a colleague's invitation. Only the token's SHA-256 is kept; a link is used once.
CREATE TABLE one_time_links (
  id          uuid PRIMARY KEY,
  token_hash  bytea NOT NULL UNIQUE,
  purpose     text NOT NULL CHECK (purpose IN ('set_password', 'sign_in', 'invitation')),
  -- the account the link acts for; null for an invitation to an address with no account yet
  user_id     uuid REFERENCES users(id) ON DELETE CASCADE,
  -- the company an invitation is to
  company_id  uuid REFERENCES companies(id) ON DELETE CASCADE,
  details     jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz(3) NOT NULL,
  expires_at  timestamptz(3) NOT NULL,
  used_at     timestamptz(3)
);
CREATE INDEX one_time_links_user_idx ON one_time_links (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX one_time_links_expires_idx ON one_time_links (expires_at);
