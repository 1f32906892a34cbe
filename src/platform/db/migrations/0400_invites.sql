-- Invites and message delivery: invites, batches, queued messages, the monthly quota, the
-- suppression list and the messaging-channel settings of a company.

-- A batch is a bulk import (its invites carry it) or one send call (its messages carry it).
CREATE TABLE invite_batches (
  id          uuid PRIMARY KEY,
  company_id  uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  form_id     uuid NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('import', 'send')),
  channel     text CHECK (channel IN ('email', 'whatsapp')),
  created_at  timestamptz(3) NOT NULL,
  UNIQUE (company_id, id),
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE
);

-- status is the stored status (contract decisions, "Records not shown"); effectiveStatus is
-- computed from it and expires_at when read.
CREATE TABLE invites (
  id                 uuid PRIMARY KEY,
  company_id         uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  form_id            uuid NOT NULL,
  -- 32 random bytes, base64url: the credential of the personal link.
  token              text NOT NULL UNIQUE CHECK (length(token) >= 43),
  status             text NOT NULL DEFAULT 'created' CHECK (status IN
                       ('created', 'queued', 'sent', 'delivered', 'opened', 'started', 'responded', 'failed', 'revoked', 'expired')),
  email              text CHECK (length(email) <= 320),
  phone              text CHECK (phone ~ '^\+[1-9][0-9]{6,14}$'),
  name               text CHECK (length(name) <= 200),
  external_id        text CHECK (length(external_id) <= 200),
  dims               jsonb NOT NULL DEFAULT '{}'::jsonb,
  org_unit_id        uuid,
  org_path           text,
  -- The import batch that created it; null for POST /forms/{id}/invites.
  batch_id           uuid,
  -- The last send: its channel and send batch (the invite.* events carry them).
  channel            text CHECK (channel IN ('email', 'whatsapp')),
  send_batch_id      uuid,
  expires_at         timestamptz(3),
  status_changed_at  timestamptz(3) NOT NULL,
  created_at         timestamptz(3) NOT NULL,
  CHECK (email IS NOT NULL OR phone IS NOT NULL),
  UNIQUE (company_id, id),
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, batch_id) REFERENCES invite_batches (company_id, id)
);
-- One invite per contact per form, decided by the database (concurrent creations: one wins).
CREATE UNIQUE INDEX invites_form_email_key ON invites (company_id, form_id, email) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX invites_form_phone_key ON invites (company_id, form_id, phone) WHERE phone IS NOT NULL;
-- The list order of the contract decisions: createdAt desc, id desc.
CREATE INDEX invites_list_idx ON invites (company_id, form_id, created_at DESC, id DESC);
CREATE INDEX invites_batch_idx ON invites (company_id, batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX invites_send_batch_idx ON invites (company_id, send_batch_id) WHERE send_batch_id IS NOT NULL;
-- The expiry sweep looks only at invites that can still expire.
CREATE INDEX invites_expiry_idx ON invites (expires_at)
  WHERE expires_at IS NOT NULL AND status NOT IN ('responded', 'revoked', 'expired');

-- One row per queued message: what is due (due_at), the lease and attempt count of the outbound
-- loop, and the provider's message id that receipts refer to.
CREATE TABLE invite_messages (
  id                   uuid PRIMARY KEY,
  company_id           uuid NOT NULL,
  invite_id            uuid NOT NULL,
  batch_id             uuid NOT NULL,
  channel              text NOT NULL CHECK (channel IN ('email', 'whatsapp')),
  status               text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'cancelled')),
  -- The WhatsApp template of the send (name, language, variables); null for e-mail.
  template             jsonb,
  due_at               timestamptz(3) NOT NULL,
  lease_until          timestamptz(3),
  attempts             integer NOT NULL DEFAULT 0,
  provider_message_id  text,
  last_error           text,
  -- The quota month the unit was reserved in, so it is consumed or returned in that month.
  quota_period         text NOT NULL CHECK (quota_period ~ '^\d{4}-\d{2}$'),
  created_at           timestamptz(3) NOT NULL,
  completed_at         timestamptz(3),
  UNIQUE (company_id, id),
  FOREIGN KEY (company_id, invite_id) REFERENCES invites (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, batch_id) REFERENCES invite_batches (company_id, id) ON DELETE CASCADE
);
CREATE INDEX invite_messages_due_idx ON invite_messages (due_at) WHERE status = 'pending';
CREATE INDEX invite_messages_invite_idx ON invite_messages (company_id, invite_id);
CREATE INDEX invite_messages_batch_idx ON invite_messages (company_id, batch_id);
CREATE UNIQUE INDEX invite_messages_provider_idx ON invite_messages (channel, provider_message_id) WHERE provider_message_id IS NOT NULL;

-- The monthly quota: one row per company and UTC month. A send reserves with one conditional
-- UPDATE (used + reserved + n <= limit); a message leaving moves its unit from reserved to used,
-- a cancelled one gives it back.
CREATE TABLE quota_usage (
  company_id  uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  period      text NOT NULL CHECK (period ~ '^\d{4}-\d{2}$'),
  used        integer NOT NULL DEFAULT 0 CHECK (used >= 0),
  reserved    integer NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  PRIMARY KEY (company_id, period)
);

CREATE TABLE suppressions (
  company_id  uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  -- A normalised e-mail (lower-case) or an E.164 phone.
  address     text NOT NULL CHECK (length(address) BETWEEN 1 AND 320),
  reason      text NOT NULL CHECK (reason IN ('bounced', 'complained', 'unsubscribed', 'manual')),
  created_at  timestamptz(3) NOT NULL,
  PRIMARY KEY (company_id, address)
);

-- The messaging-app channel of a company. Credentials are sealed like webhook secrets.
CREATE TABLE messaging_channels (
  company_id          uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  channel             text NOT NULL CHECK (channel IN ('whatsapp')),
  provider            text NOT NULL CHECK (provider IN ('cloud-api', 'gateway')),
  -- Non-secret settings: phone number id, gateway URL, approved templates.
  settings            jsonb NOT NULL DEFAULT '{}'::jsonb,
  credentials_sealed  bytea NOT NULL,
  updated_at          timestamptz(3) NOT NULL,
  PRIMARY KEY (company_id, channel)
);

-- The development mailbox: without SMTP_URL, e-mail lands here, readable at /dev/mail and with
-- `quorum mail list|show`. Not tenant data (an operator's tool), so no company key.
CREATE TABLE dev_mail (
  id          uuid PRIMARY KEY,
  message_id  text NOT NULL,
  sender      text NOT NULL,
  recipient   text NOT NULL,
  subject     text NOT NULL,
  text_body   text NOT NULL,
  html_body   text NOT NULL,
  headers     jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz(3) NOT NULL
);
CREATE INDEX dev_mail_created_idx ON dev_mail (created_at DESC, id DESC);
