-- Response scans (GET /forms/{id}/responses, src/features/responses/list-responses.ts).

-- Insertion order. The first page of a scan binds max(seq) of the company into its cursor and
-- later pages read only seq <= that bound, so a response inserted during the scan never
-- appears in that pass, even when its created_at is older than the scan position (clock skew
-- between instances, backdated imports): created_at alone cannot promise that.
ALTER TABLE responses ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
-- max(seq) of a company in one index probe, in the snapshot of the first page.
CREATE INDEX responses_company_seq_idx ON responses (company_id, seq);

-- dim.<key>=<value> filters. The dims are indexed under their form id ({"<formId>": dims}), so
-- jsonb_path_ops hashes form, key and value into one entry: a value common to many forms or
-- companies (a year, a date) still finds only this form's responses.
CREATE FUNCTION response_form_dims(form_id uuid, dims jsonb) RETURNS jsonb
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN jsonb_set('{}'::jsonb, ARRAY[form_id::text], dims);
CREATE INDEX responses_form_dims_idx ON responses USING gin (response_form_dims(form_id, dims) jsonb_path_ops);
-- A finer histogram of the indexed expression, so the planner sees how rare a dim value is and
-- picks between this index (rare values) and walking responses_scan_idx in order (common ones).
ALTER INDEX responses_form_dims_idx ALTER COLUMN 1 SET STATISTICS 1000;
