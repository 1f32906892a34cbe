-- Idempotency keys of /v1 POSTs (contract decisions, "Idempotency keys"; src/features/idempotency):
-- per API key, the first request with a key claims its row (status_code NULL while it runs, until
-- locked_until), and its answer is stored when it is sent, replayed to repeats until expires_at.
CREATE TABLE idempotency_keys (
  company_id    uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  api_key_id    uuid NOT NULL,
  idem_key      text NOT NULL CHECK (length(idem_key) BETWEEN 1 AND 255),
  -- SHA-256 of method, path and the canonical JSON body: "the same request".
  fingerprint   bytea NOT NULL,
  status_code   integer,
  content_type  text,
  body          bytea,
  created_at    timestamptz(3) NOT NULL,
  locked_until  timestamptz(3) NOT NULL,
  expires_at    timestamptz(3) NOT NULL,
  PRIMARY KEY (company_id, api_key_id, idem_key),
  FOREIGN KEY (company_id, api_key_id) REFERENCES api_keys (company_id, id) ON DELETE CASCADE,
  CHECK ((status_code IS NULL) = (body IS NULL))
);

-- The prune sweep deletes by expiry.
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at);
