-- Reminder schedules (features/reminders): per form and channel, remind the invitees who have not
-- responded, through the send path (its quota, skips and events).

-- What a message is: the invitation, or a reminder (rendered from the form's reminder template).
-- A constant default: adding the column rewrites nothing.
ALTER TABLE invite_messages ADD COLUMN purpose text NOT NULL DEFAULT 'invitation' CHECK (purpose IN ('invitation', 'reminder'));

-- "N days after the first send, at most K times, at a local hour, on working days", plus a final
-- reminder D days before the invite's expiresAt.
CREATE TABLE reminder_schedules (
  company_id         uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  form_id            uuid NOT NULL,
  channel            text NOT NULL CHECK (channel IN ('email', 'whatsapp')),
  after_days         integer NOT NULL CHECK (after_days BETWEEN 1 AND 90),
  max_reminders      integer NOT NULL CHECK (max_reminders BETWEEN 0 AND 10),
  local_hour         integer NOT NULL CHECK (local_hour BETWEEN 0 AND 23),
  final_days_before  integer CHECK (final_days_before BETWEEN 1 AND 30),
  -- The cloud-API WhatsApp template of the reminders ({ name, language, variables }); null for e-mail.
  template           jsonb,
  created_at         timestamptz(3) NOT NULL,
  updated_at         timestamptz(3) NOT NULL,
  PRIMARY KEY (company_id, form_id, channel),
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE
);

-- One row per reminder step taken for an invite: the primary key is what makes a step happen once
-- whatever the number of sweepers. step 1..K are the regular reminders, 0 the final one.
CREATE TABLE reminder_steps (
  company_id   uuid NOT NULL,
  invite_id    uuid NOT NULL,
  channel      text NOT NULL CHECK (channel IN ('email', 'whatsapp')),
  step         integer NOT NULL CHECK (step BETWEEN 0 AND 10),
  -- The send batch of the reminder (its message carries it); the skip reason when the send skipped it.
  batch_id     uuid NOT NULL,
  skip_reason  text,
  created_at   timestamptz(3) NOT NULL,
  PRIMARY KEY (company_id, invite_id, channel, step),
  FOREIGN KEY (company_id, invite_id) REFERENCES invites (company_id, id) ON DELETE CASCADE
);
