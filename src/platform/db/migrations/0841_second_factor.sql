-- The optional TOTP second factor (issue 22). The secret must be readable to check codes, so it is
-- sealed (src/lib/secret-box.ts, bound to the user id), not hashed. Enrolment keeps the new secret
-- in totp_pending_sealed until a code from it is confirmed; totp_last_step is the last accepted time
-- step, so a code is never accepted twice (nor an older one).
ALTER TABLE users
  ADD COLUMN totp_secret_sealed bytea,
  ADD COLUMN totp_pending_sealed bytea,
  ADD COLUMN totp_enabled_at timestamptz(3),
  ADD COLUMN totp_last_step bigint,
  ADD CONSTRAINT users_totp_enabled_check CHECK ((totp_secret_sealed IS NULL) = (totp_enabled_at IS NULL));

-- Ten one-time recovery codes per enrolment, shown once; only their SHA-256 is kept.
CREATE TABLE user_recovery_codes (
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash   bytea NOT NULL,
  created_at  timestamptz(3) NOT NULL,
  used_at     timestamptz(3),
  PRIMARY KEY (user_id, code_hash)
);
