-- The delete trigger of response_dim_scan (migration 0510) joined the deleted rows to
-- jsonb_each(dims) in a way the planner turned into an index scan on (company, form,
-- created_at, response_id) that skips dim_key and value, the second and third columns of the
-- primary key: every deleted response walked all of its form's scan entries (3,000,000 on the
-- bench's 1,000,000-response form; deleting 1,200 responses ran for minutes). The entries to
-- delete are now listed first (a materialized CTE, one row per string dim), so each is one
-- probe of the whole primary key, or one hash join for a large delete.
CREATE OR REPLACE FUNCTION response_dim_scan_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH gone AS MATERIALIZED (
    SELECT r.company_id, r.form_id, d.key AS dim_key, d.value #>> '{}' AS value, r.created_at, r.id AS response_id
      FROM changed r, jsonb_each(r.dims) d
     WHERE jsonb_typeof(d.value) = 'string'
  )
  DELETE FROM response_dim_scan s
   USING gone g
   WHERE (s.company_id, s.form_id, s.dim_key, s.value, s.created_at, s.response_id)
       = (g.company_id, g.form_id, g.dim_key, g.value, g.created_at, g.response_id);
  RETURN NULL;
END;
$$;
