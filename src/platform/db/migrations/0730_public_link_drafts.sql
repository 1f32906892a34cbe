-- Save and resume on a public link (issue 25): a person without an invite keeps their answers so
-- far behind a resume link they can keep. The link carries a random token; only its hash is stored
-- (as respondent_page_states does), scoped to the company and form, and the row expires.
-- prefill: the link's prefill the saving page had sealed in its submission token, sealed again
-- into the resumed page's new token.
CREATE TABLE public_link_drafts (
  token_hash    text PRIMARY KEY CHECK (length(token_hash) = 43),
  company_id    uuid NOT NULL,
  form_id       uuid NOT NULL,
  answers       jsonb NOT NULL,
  section_index integer NOT NULL CHECK (section_index >= 0),
  prefill       jsonb NOT NULL,
  expires_at    timestamptz(3) NOT NULL,
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE
);
CREATE INDEX public_link_drafts_expiry_idx ON public_link_drafts (expires_at);
