-- Webhooks: subscriptions, one delivery per (event, subscription), and the log of every attempt.

-- A UUIDv7 stamped with the given time, for rows created set-wise in SQL (the fan-out inserts one
-- delivery per matching subscription in one statement). Postgres 15 has no uuidv7(): the random
-- bytes of gen_random_uuid() get the 48-bit millisecond time in front and the version nibble 7;
-- the variant bits of a v4 are already those of a v7.
CREATE FUNCTION uuidv7_at(at timestamptz) RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(
    set_byte(
      overlay(r PLACING substring(int8send(floor(extract(epoch FROM at) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
      6, (get_byte(r, 6) & 15) | 112),
    'hex')::uuid
  FROM (SELECT uuid_send(gen_random_uuid()) AS r) AS random_bytes
$$;

CREATE TABLE webhook_subscriptions (
  id                          uuid PRIMARY KEY,
  company_id                  uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  url                         text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
  -- '{*}' or a list of catalog types.
  types                       text[] NOT NULL CHECK (cardinality(types) > 0),
  enabled                     boolean NOT NULL DEFAULT true,
  description                 text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  -- The whsec_ secret sealed with AES-256-GCM under a key derived from SECRET_KEY (secret-box.ts):
  -- it must be readable to sign, so it cannot be hashed; the plain secret is never stored.
  secret_sealed               bytea NOT NULL,
  -- During a rotation the old secret keeps signing (alongside the new one) until it expires.
  previous_secret_sealed      bytea,
  previous_secret_expires_at  timestamptz(3),
  -- Start of the current run of failures without a success; null after any success.
  failing_since               timestamptz(3),
  disabled_at                 timestamptz(3),
  disabled_reason             text CHECK (disabled_reason IN ('operator', 'gone', 'failing')),
  created_at                  timestamptz(3) NOT NULL,
  updated_at                  timestamptz(3) NOT NULL,
  UNIQUE (company_id, id)
);
CREATE INDEX webhook_subscriptions_company_idx ON webhook_subscriptions (company_id, created_at DESC, id DESC);

-- status pending: waiting for next_attempt_at, or leased by a worker until lease_until (then
-- next_attempt_at = lease_until, so an abandoned lease simply becomes due again).
CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY,
  company_id       uuid NOT NULL,
  subscription_id  uuid NOT NULL,
  event_id         uuid NOT NULL,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz(3) NOT NULL,
  lease_until      timestamptz(3),
  created_at       timestamptz(3) NOT NULL,
  completed_at     timestamptz(3),
  UNIQUE (company_id, id),
  FOREIGN KEY (company_id, subscription_id) REFERENCES webhook_subscriptions (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, event_id) REFERENCES events (company_id, id) ON DELETE CASCADE
);
-- The claim walks each subscription's due deliveries, and counts its leased ones for the cap.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (subscription_id, next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (subscription_id, lease_until) WHERE status = 'pending' AND lease_until IS NOT NULL;
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (company_id, event_id);
CREATE INDEX webhook_deliveries_finished_idx ON webhook_deliveries (completed_at) WHERE status <> 'pending';

CREATE TABLE webhook_attempts (
  company_id     uuid NOT NULL,
  delivery_id    uuid NOT NULL,
  attempt        integer NOT NULL,
  started_at     timestamptz(3) NOT NULL,
  duration_ms    integer,
  status_code    integer,
  error          text,
  -- The first 4 KiB of the answer, decoded as UTF-8.
  response_body  text,
  PRIMARY KEY (delivery_id, attempt),
  FOREIGN KEY (company_id, delivery_id) REFERENCES webhook_deliveries (company_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_attempts_started_idx ON webhook_attempts (started_at);
