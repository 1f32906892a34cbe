-- Treatments: follow-up flows per form, the cases responses open, their history, the per-company
-- case counter (gapless: a row updated in the opening transaction, never a SEQUENCE) and the
-- company holidays that working-day deadlines skip.

CREATE TABLE treatment_flows (
  id          uuid PRIMARY KEY,
  company_id  uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  form_id     uuid NOT NULL,
  key         text NOT NULL CHECK (length(key) BETWEEN 1 AND 64),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- { when: resolved condition (question ids), steps: [{ name, responsible, dueInWorkingDays }] }
  definition  jsonb NOT NULL,
  created_at  timestamptz(3) NOT NULL,
  UNIQUE (company_id, id),
  UNIQUE (form_id, key),
  FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE
);

CREATE TABLE treatment_counters (
  company_id   uuid PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  last_number  integer NOT NULL CHECK (last_number >= 0)
);

CREATE TABLE treatments (
  id                   uuid PRIMARY KEY,
  company_id           uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  number               integer NOT NULL CHECK (number >= 1),
  form_id              uuid NOT NULL,
  -- A removed flow leaves its cases: they carry a copy of the steps.
  flow_id              uuid,
  flow_key             text NOT NULL,
  -- null on a case chained after a failed effectiveness check
  response_id          uuid,
  chained_from_id      uuid,
  steps                jsonb NOT NULL,
  status               text NOT NULL CHECK (status IN ('open', 'closed')),
  step_index           integer NOT NULL CHECK (step_index >= 0),
  -- when the current step's working days started counting (recomputing due_at after a holiday change)
  step_started_at      timestamptz(3) NOT NULL,
  step_due_at          timestamptz(3),
  -- set once per step by the overdue sweep; cleared when the case moves to another step
  overdue_notified_at  timestamptz(3),
  outcome              text CHECK (outcome IN ('resolved', 'unfounded', 'no-response', 'duplicate', 'other')),
  reason               text CHECK (length(reason) BETWEEN 1 AND 2000),
  org_unit_id          uuid,
  org_path             text,
  -- The respondent, as an effectiveness check finds their later responses: 'externalId:<id>' or 'email:<address>'.
  respondent_key       text,
  -- The flow's effectiveness check, copied at opening; armed when the case closes as resolved.
  effectiveness_check  jsonb,
  check_due_at         timestamptz(3),
  check_form_id        uuid,
  check_done_at        timestamptz(3),
  opened_at            timestamptz(3) NOT NULL,
  closed_at            timestamptz(3),
  UNIQUE (company_id, id),
  UNIQUE (company_id, number),
  FOREIGN KEY (company_id, form_id) REFERENCES forms(company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, flow_id) REFERENCES treatment_flows(company_id, id) ON DELETE SET NULL (flow_id),
  FOREIGN KEY (company_id, response_id) REFERENCES responses(company_id, id) ON DELETE SET NULL (response_id),
  CHECK ((status = 'open') = (step_due_at IS NOT NULL))
);

-- One case per (response, flow): reprocessing a response never opens a second.
CREATE UNIQUE INDEX treatments_response_flow_idx ON treatments (response_id, flow_key) WHERE response_id IS NOT NULL;
-- GET /treatments: newest first per company.
CREATE INDEX treatments_company_number_idx ON treatments (company_id, number DESC);
-- The overdue sweep reads only open steps not yet notified.
-- The effectiveness checks still to decide: by date (a sweep), by a later response (the response consumer).
CREATE INDEX treatments_check_due_idx ON treatments (check_due_at) WHERE check_done_at IS NULL AND check_due_at IS NOT NULL;
CREATE INDEX treatments_check_form_idx ON treatments (check_form_id, respondent_key) WHERE check_done_at IS NULL AND check_form_id IS NOT NULL;
CREATE INDEX treatments_overdue_idx ON treatments (step_due_at) WHERE status = 'open' AND overdue_notified_at IS NULL;

CREATE TABLE treatment_history (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id    uuid NOT NULL,
  treatment_id  uuid NOT NULL,
  action        text NOT NULL CHECK (action IN ('opened', 'advanced', 'overdue', 'closed', 'reopened')),
  step_index    integer NOT NULL,
  outcome       text,
  reason        text,
  at            timestamptz(3) NOT NULL,
  FOREIGN KEY (company_id, treatment_id) REFERENCES treatments(company_id, id) ON DELETE CASCADE
);
CREATE INDEX treatment_history_case_idx ON treatment_history (treatment_id, id);

CREATE TABLE company_holidays (
  company_id  uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  day         date NOT NULL,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  PRIMARY KEY (company_id, day)
);
