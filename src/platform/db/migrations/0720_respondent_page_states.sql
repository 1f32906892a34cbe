-- Post/Redirect/Get on the respondent pages: what a POST decided, kept for the GET it redirects to,
-- so Back, Forward and reload never resubmit a section. A random value in an HttpOnly cookie
-- scoped to the link's path names the row (only its hash is stored). It holds the section to
-- show, its errors and the values as typed (a ranking's positions included), and on a public link
-- the answers so far and the page's submission token. Short-lived: pruned once expired.
CREATE TABLE respondent_page_states (
  key_hash   text PRIMARY KEY CHECK (length(key_hash) = 43),
  company_id uuid NOT NULL,
  form_id    uuid NOT NULL,
  -- the link path the state belongs to (/i/{token} or /f/{company}/{form})
  link       text NOT NULL CHECK (length(link) BETWEEN 1 AND 300),
  state      jsonb NOT NULL,
  expires_at timestamptz(3) NOT NULL,
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE
);
CREATE INDEX respondent_page_states_expiry_idx ON respondent_page_states (expires_at);
