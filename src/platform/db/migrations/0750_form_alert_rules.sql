-- Alert rules of a form (contract decisions, "Goals"): form.goal_reached fires when the form's
-- response count goes from below `goal` to at least `goal` while the rule is armed; firing disarms
-- it until an operator resets it. The crossing is decided in the response's transaction by one
-- conditional UPDATE (src/features/goals/reach-goals.ts) against forms.response_count.
CREATE TABLE form_alert_rules (
  id             uuid PRIMARY KEY,
  company_id     uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  form_id        uuid NOT NULL,
  goal           integer NOT NULL CHECK (goal >= 1),
  armed          boolean NOT NULL,
  -- The last crossing: when, and the count at that moment (what the event carried).
  reached_at     timestamptz(3),
  reached_count  integer,
  created_at     timestamptz(3) NOT NULL,
  UNIQUE (company_id, id),
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE,
  CHECK ((reached_at IS NULL) = (reached_count IS NULL))
);

-- Every response of a form probes its armed rules at the count it just reached: an index seek
-- that finds nothing for the vast majority of responses.
CREATE INDEX form_alert_rules_armed_idx ON form_alert_rules (company_id, form_id, goal) WHERE armed;
CREATE INDEX form_alert_rules_form_idx ON form_alert_rules (company_id, form_id, created_at);
