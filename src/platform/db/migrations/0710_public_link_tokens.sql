-- Bounds on the public link (respondent surface): one response per submission token, and uploads
-- counted per client address, per form and per company, tied to the token of the page that sent them.

-- A used submission token of a public link: a second submit with the same token finds the first
-- one's response here instead of storing another. Pruned once the token has expired.
CREATE TABLE public_link_submissions (
  company_id  uuid NOT NULL,
  nonce       text NOT NULL CHECK (length(nonce) BETWEEN 1 AND 64),
  form_id     uuid NOT NULL,
  -- set in the transaction that claims the token, before it commits
  response_id uuid,
  expires_at  timestamptz(3) NOT NULL,
  PRIMARY KEY (company_id, nonce),
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, response_id) REFERENCES responses (company_id, id) ON DELETE CASCADE
);
CREATE INDEX public_link_submissions_expiry_idx ON public_link_submissions (expires_at);

-- source_key: a keyed hash of the uploader's address (never the address itself), for the hourly
-- cap per address. submission_nonce: the public link's token that sent it; only a submit with
-- that token may claim it. Both null on rows stored before these bounds.
ALTER TABLE respondent_uploads
  ADD COLUMN source_key       text CHECK (length(source_key) BETWEEN 1 AND 64),
  ADD COLUMN submission_nonce text CHECK (length(submission_nonce) BETWEEN 1 AND 64);
CREATE INDEX respondent_uploads_source_recent_idx ON respondent_uploads (source_key, created_at) WHERE source_key IS NOT NULL;
CREATE INDEX respondent_uploads_form_recent_idx ON respondent_uploads (company_id, form_id, created_at);
CREATE INDEX respondent_uploads_company_size_idx ON respondent_uploads (company_id) INCLUDE (size);
