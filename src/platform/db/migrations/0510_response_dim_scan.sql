-- The keyset path of single-dim response scans (GET /forms/{id}/responses?dim.<key>=<value>,
-- src/features/responses/list-responses.ts): one row per response and string dim, in the scan
-- order of that value, so a filter matching 0.3% of a form pages by an index seek like the
-- unfiltered scan instead of sorting or walking the other 99.7%. Dim values are strings
-- (canonical text); a non-string one is not one the filter, which compares JSON strings, matches.
CREATE TABLE response_dim_scan (
  company_id   uuid NOT NULL,
  form_id      uuid NOT NULL,
  dim_key      text NOT NULL,
  value        text NOT NULL,
  created_at   timestamptz(3) NOT NULL,
  response_id  uuid NOT NULL,
  PRIMARY KEY (company_id, form_id, dim_key, value, created_at, response_id)
);

-- Kept by statement-level triggers, in the response's transaction and one statement per insert
-- or delete statement (bulk loads included); responses never change dims or created_at.
CREATE FUNCTION response_dim_scan_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO response_dim_scan (company_id, form_id, dim_key, value, created_at, response_id)
  SELECT r.company_id, r.form_id, d.key, d.value #>> '{}', r.created_at, r.id
    FROM changed r, jsonb_each(r.dims) d
   WHERE jsonb_typeof(d.value) = 'string';
  RETURN NULL;
END;
$$;

CREATE FUNCTION response_dim_scan_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM response_dim_scan s
   USING changed r, jsonb_each(r.dims) d
   WHERE s.company_id = r.company_id AND s.form_id = r.form_id AND s.dim_key = d.key
     AND s.value = d.value #>> '{}' AND s.created_at = r.created_at AND s.response_id = r.id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER responses_dim_scan_inserted AFTER INSERT ON responses
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION response_dim_scan_insert();
CREATE TRIGGER responses_dim_scan_deleted AFTER DELETE ON responses
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION response_dim_scan_delete();

INSERT INTO response_dim_scan (company_id, form_id, dim_key, value, created_at, response_id)
SELECT r.company_id, r.form_id, d.key, d.value #>> '{}', r.created_at, r.id
  FROM responses r, jsonb_each(r.dims) d
 WHERE jsonb_typeof(d.value) = 'string';
