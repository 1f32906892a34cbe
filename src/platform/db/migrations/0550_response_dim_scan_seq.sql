-- response_dim_scan carries each response's insertion sequence (responses.seq, migration 0110),
-- so a later page of a single-dim scan applies its insertion bound (rule 9) in the side table's
-- index alone: the page's response ids are then final before any response row is read, and
-- those rows are fetched together (list-responses.ts, dimScanSql). In the primary key's INCLUDE
-- list, so the seek stays an index-only scan.
ALTER TABLE response_dim_scan ADD COLUMN seq bigint;
UPDATE response_dim_scan s SET seq = r.seq FROM responses r WHERE r.id = s.response_id;
ALTER TABLE response_dim_scan ALTER COLUMN seq SET NOT NULL;
ALTER TABLE response_dim_scan DROP CONSTRAINT response_dim_scan_pkey;
ALTER TABLE response_dim_scan ADD PRIMARY KEY (company_id, form_id, dim_key, value, created_at, response_id) INCLUDE (seq);

CREATE OR REPLACE FUNCTION response_dim_scan_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO response_dim_scan (company_id, form_id, dim_key, value, created_at, response_id, seq)
  SELECT r.company_id, r.form_id, d.key, d.value #>> '{}', r.created_at, r.id, r.seq
    FROM changed r, jsonb_each(r.dims) d
   WHERE jsonb_typeof(d.value) = 'string';
  RETURN NULL;
END;
$$;
