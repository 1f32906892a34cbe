-- Colleague invitations (issue 22): an owner invites an e-mail address with a set of permissions;
-- the mailed link (<PUBLIC_PANEL_URL>/accept#token=...) lets the colleague set a password, or add
-- the membership to the account they already have. Only the token's SHA-256 is kept; a link is
-- good for 7 days and once (accepted_at), and an owner may cancel it (cancelled_at).
CREATE TABLE member_invitations (
  id            uuid PRIMARY KEY,
  company_id    uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  -- Kept as typed; matched case-insensitively, as users' e-mails are.
  email         text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  permissions   text[] NOT NULL,
  owner         boolean NOT NULL,
  token_hash    bytea NOT NULL UNIQUE,
  invited_by    uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at    timestamptz(3) NOT NULL,
  expires_at    timestamptz(3) NOT NULL,
  accepted_at   timestamptz(3),
  cancelled_at  timestamptz(3),
  CHECK (accepted_at IS NULL OR cancelled_at IS NULL)
);

-- The pending list of a company, newest first; and "is there one pending for this address" at invite time.
CREATE INDEX member_invitations_pending_idx ON member_invitations (company_id, created_at DESC)
  WHERE accepted_at IS NULL AND cancelled_at IS NULL;
CREATE INDEX member_invitations_email_idx ON member_invitations (company_id, lower(email))
  WHERE accepted_at IS NULL AND cancelled_at IS NULL;
