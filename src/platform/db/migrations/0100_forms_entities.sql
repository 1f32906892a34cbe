-- Registered entities (courses, teachers, units) and forms.response_count kept by the database.

-- Units form a tree; org_path is the materialised path /<rootId>/.../<id>/ so that a subtree is
-- one prefix test (org_path LIKE '/<root>/<unit>/%'). Courses and teachers are flat.
CREATE TABLE entities (
  id          uuid PRIMARY KEY,
  company_id  uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('course', 'teacher', 'unit')),
  code        text NOT NULL CHECK (code ~ '^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$'),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  parent_id   uuid,
  org_path    text,
  created_at  timestamptz(3) NOT NULL,
  updated_at  timestamptz(3) NOT NULL,
  UNIQUE (company_id, id),
  UNIQUE (company_id, kind, code),
  FOREIGN KEY (company_id, parent_id) REFERENCES entities (company_id, id),
  CHECK (kind = 'unit' OR parent_id IS NULL),
  CHECK ((kind = 'unit') = (org_path IS NOT NULL)),
  CHECK (org_path IS NULL OR org_path LIKE '/%/')
);
CREATE INDEX entities_org_path_idx ON entities (company_id, org_path text_pattern_ops);
CREATE INDEX entities_parent_idx ON entities (company_id, parent_id) WHERE parent_id IS NOT NULL;

-- forms.response_count follows the responses table: one UPDATE per statement and form, so a bulk
-- insert costs one row update per form, not one per response. Callers that need the count at a
-- crossing (form.goal_reached) read it back in the same transaction, after their insert.
CREATE FUNCTION forms_count_responses() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  UPDATE forms f
     SET response_count = f.response_count + delta * changed_per_form.n
    FROM (SELECT company_id, form_id, count(*)::integer AS n FROM changed GROUP BY company_id, form_id) AS changed_per_form
   WHERE f.company_id = changed_per_form.company_id AND f.id = changed_per_form.form_id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER responses_count_inserted AFTER INSERT ON responses
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION forms_count_responses();
CREATE TRIGGER responses_count_deleted AFTER DELETE ON responses
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION forms_count_responses();
