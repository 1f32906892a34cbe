-- Versions of a form's definition (issue 23): every write of a definition (panel save, create,
-- duplicate, close/reopen, CLI import) keeps the exported file as it became, who wrote it and a
-- summary of what changed, so staff can see who changed what and when. Versions number from 1
-- per form; the form's record stays the current definition.
CREATE TABLE form_versions (
  id             uuid PRIMARY KEY,
  company_id     uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  form_id        uuid NOT NULL,
  version        integer NOT NULL CHECK (version >= 1),
  -- null: an operator's CLI import (no panel user)
  actor_user_id  uuid,
  actor_email    text,
  -- { added: [...], removed: [...], changed: [...] } of section, question and choice keys, and settings names
  changes        jsonb NOT NULL,
  definition     jsonb NOT NULL,
  created_at     timestamptz(3) NOT NULL,
  UNIQUE (company_id, form_id, version),
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE
);
