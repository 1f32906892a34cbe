-- Rosters: people, class groups, classes, enrollments and the history of enrollment statuses.
-- Every key carries company_id, so no row can point at another company's row.

-- One roster write (an import or a CLI status change); the status history points at it.
CREATE TABLE roster_operations (
  id          uuid PRIMARY KEY,
  company_id  uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('import', 'set-status')),
  mode        text CHECK (mode IN ('upsert', 'sync')),
  summary     jsonb NOT NULL,
  created_at  timestamptz(3) NOT NULL,
  UNIQUE (company_id, id)
);

CREATE TABLE people (
  id           uuid PRIMARY KEY,
  company_id   uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  external_id  text NOT NULL CHECK (length(external_id) BETWEEN 1 AND 200),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  email        text CHECK (length(email) <= 320),
  phone        text CHECK (length(phone) <= 20),
  created_at   timestamptz(3) NOT NULL,
  updated_at   timestamptz(3) NOT NULL,
  UNIQUE (company_id, id),
  UNIQUE (company_id, external_id)
);

CREATE TABLE class_groups (
  id          uuid PRIMARY KEY,
  company_id  uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  code        text NOT NULL CHECK (length(code) BETWEEN 1 AND 64),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  starts_on   date,
  ends_on     date,
  created_at  timestamptz(3) NOT NULL,
  updated_at  timestamptz(3) NOT NULL,
  UNIQUE (company_id, id),
  UNIQUE (company_id, code),
  CHECK (starts_on IS NULL OR ends_on IS NULL OR starts_on <= ends_on)
);
CREATE INDEX class_groups_list_idx ON class_groups (company_id, created_at DESC, id DESC);

-- course_item_id and org_unit_id are registered entities (a course and a unit): the
-- enrollment.dropped event carries both as strings, so a class always has them.
CREATE TABLE classes (
  id              uuid PRIMARY KEY,
  company_id      uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  code            text NOT NULL CHECK (length(code) BETWEEN 1 AND 64),
  name            text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  class_group_id  uuid,
  course_item_id  uuid NOT NULL,
  org_unit_id     uuid NOT NULL,
  teacher_ids     uuid[] NOT NULL DEFAULT '{}',
  created_at      timestamptz(3) NOT NULL,
  updated_at      timestamptz(3) NOT NULL,
  UNIQUE (company_id, id),
  UNIQUE (company_id, code),
  FOREIGN KEY (company_id, class_group_id) REFERENCES class_groups (company_id, id),
  FOREIGN KEY (company_id, course_item_id) REFERENCES entities (company_id, id),
  FOREIGN KEY (company_id, org_unit_id) REFERENCES entities (company_id, id)
);
CREATE INDEX classes_group_idx ON classes (company_id, class_group_id);
CREATE INDEX classes_unit_idx ON classes (company_id, org_unit_id);

CREATE TABLE enrollments (
  id                 uuid PRIMARY KEY,
  company_id         uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  person_id          uuid NOT NULL,
  class_id           uuid NOT NULL,
  status             text NOT NULL CHECK (status IN ('enrolled', 'completed', 'dropped')),
  status_changed_at  timestamptz(3) NOT NULL,
  created_at         timestamptz(3) NOT NULL,
  UNIQUE (company_id, id),
  -- One enrollment per person and class: concurrent imports meet here (ON CONFLICT).
  UNIQUE (company_id, person_id, class_id),
  FOREIGN KEY (company_id, person_id) REFERENCES people (company_id, id),
  FOREIGN KEY (company_id, class_id) REFERENCES classes (company_id, id)
);
-- The changedSince scan: keyset on (status_changed_at, id) per company.
CREATE INDEX enrollments_changed_idx ON enrollments (company_id, status_changed_at, id);
-- Sync counts and drops the enrollments of a class; the classCode filter of the scan.
CREATE INDEX enrollments_class_idx ON enrollments (company_id, class_id, status_changed_at, id);

-- One row per status change, stamped with the operation that caused it.
CREATE TABLE enrollment_changes (
  id             uuid PRIMARY KEY,
  company_id     uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  enrollment_id  uuid NOT NULL,
  operation_id   uuid NOT NULL,
  from_status    text,
  to_status      text NOT NULL,
  changed_at     timestamptz(3) NOT NULL,
  FOREIGN KEY (company_id, enrollment_id) REFERENCES enrollments (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, operation_id) REFERENCES roster_operations (company_id, id)
);
CREATE INDEX enrollment_changes_enrollment_idx ON enrollment_changes (company_id, enrollment_id, changed_at);
