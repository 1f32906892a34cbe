-- The respondent surface: the invite lifecycle stamps, one saved draft per invite, the files of
-- FILE answers, and one response per invite.

-- Each stage is stamped once; the conditional UPDATE ... WHERE <stage>_at IS NULL that sets it
-- decides which request emits the stage's event (contract decisions, "The respondent surface").
ALTER TABLE invites
  ADD COLUMN opened_at    timestamptz(3),
  ADD COLUMN started_at   timestamptz(3),
  ADD COLUMN responded_at timestamptz(3);

-- However many submits race, an invite becomes at most one response.
CREATE UNIQUE INDEX responses_invite_key ON responses (company_id, invite_id) WHERE invite_id IS NOT NULL;

-- The autosaved answers of a personal link, kept until submit or revoke.
CREATE TABLE invite_drafts (
  invite_id      uuid PRIMARY KEY,
  company_id     uuid NOT NULL,
  answers        jsonb NOT NULL DEFAULT '{}'::jsonb,
  section_index  integer NOT NULL DEFAULT 0 CHECK (section_index BETWEEN 0 AND 1000),
  saved_at       timestamptz(3) NOT NULL,
  FOREIGN KEY (company_id, invite_id) REFERENCES invites (company_id, id) ON DELETE CASCADE
);

-- A file sent for a FILE answer. The content lives under the data directory
-- (uploads/<company_id>/<id>), never served back to the public; a response's FILE answer must
-- name an unused upload of the same form (and of the same invite on a personal link), which the
-- submit then marks with the response. Unused uploads no draft names are pruned after a week.
CREATE TABLE respondent_uploads (
  id          uuid PRIMARY KEY,
  company_id  uuid NOT NULL,
  form_id     uuid NOT NULL,
  -- null for an upload through the public link
  invite_id   uuid,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  mime        text NOT NULL CHECK (length(mime) BETWEEN 1 AND 255),
  size        bigint NOT NULL CHECK (size >= 0),
  sha256      text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  -- the response whose FILE answer holds it; null until a submit uses it
  response_id uuid,
  created_at  timestamptz(3) NOT NULL,
  UNIQUE (company_id, id),
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, invite_id) REFERENCES invites (company_id, id) ON DELETE CASCADE,
  -- a deleted response leaves its files unused (pruned like any other)
  FOREIGN KEY (company_id, response_id) REFERENCES responses (company_id, id) ON DELETE SET NULL (response_id)
);
CREATE INDEX respondent_uploads_form_idx ON respondent_uploads (company_id, form_id);
CREATE INDEX respondent_uploads_invite_idx ON respondent_uploads (company_id, invite_id) WHERE invite_id IS NOT NULL;
CREATE INDEX respondent_uploads_unused_idx ON respondent_uploads (created_at) WHERE response_id IS NULL;
