-- Pending rollup additions (src/features/statistics). Since 0520 recordResponse merged each
-- response into one day and one month row per cut (8 rows on the bench form, each rewriting a
-- 3-7 KB jsonb tally under the form's row lock): 52-63 submissions/s against 323-676 without.
-- Now a response inserts one row here, its tally and the cuts it counts in, and a sweep
-- (fold-pending-rollups.ts) folds the pending rows of a form into its day and month rows in
-- batches: one merge per cut and span for a batch instead of per response.
--
-- Readers read statistics_rollups_live: the rollup rows and every pending row as a day row and a
-- month row of each of its cuts, so figures are exact and complete whether or not a response has
-- been folded yet. A fold deletes the pending rows and merges them in one transaction, so a
-- snapshot sees each response exactly once. Every writer of a form's rollups holds the form's
-- row lock (recordResponse and deletions take it through the response-count trigger, the fold
-- and the rebuilds explicitly), so a fold never races a rebuild of the same day.
CREATE TABLE statistics_rollup_pending (
  company_id   uuid NOT NULL,
  form_id      uuid NOT NULL,
  response_id  uuid NOT NULL,
  -- the response's UTC day (created_at)
  day          date NOT NULL,
  -- the cuts it counts in, pairwise (cut_key, cut_value) as in statistics_rollups
  cut_keys     text[] NOT NULL,
  cut_values   text[] NOT NULL,
  -- the response's items, in the tally format of 0520
  tally        jsonb NOT NULL,
  PRIMARY KEY (company_id, form_id, response_id),
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE
);

CREATE VIEW statistics_rollups_live AS
  SELECT company_id, form_id, cut_key, cut_value, span, day, responses, tally FROM statistics_rollups
  UNION ALL
  SELECT p.company_id, p.form_id, c.cut_key, c.cut_value, s.span, s.day, 1::bigint, p.tally
    FROM statistics_rollup_pending p
   CROSS JOIN unnest(p.cut_keys, p.cut_values) AS c(cut_key, cut_value)
   CROSS JOIN LATERAL (VALUES ('day', p.day), ('month', date_trunc('month', p.day)::date)) AS s(span, day);

-- Folds at most p_limit pending rows of one form into its day and month rows; returns how many.
-- The caller holds the form's row lock. The batch's items are summed per cut, span and item
-- first (numeric: exact), so each rollup row is merged once per batch.
CREATE FUNCTION statistics_rollups_fold(p_company uuid, p_form uuid, p_limit integer) RETURNS bigint LANGUAGE sql AS $$
  WITH folded AS (
    DELETE FROM statistics_rollup_pending
     WHERE company_id = p_company AND form_id = p_form
       AND response_id IN (SELECT response_id FROM statistics_rollup_pending WHERE company_id = p_company AND form_id = p_form LIMIT p_limit)
    RETURNING day, cut_keys, cut_values, tally
  ), items AS (
    SELECT c.cut_key, c.cut_value, s.span, s.day, e.key,
           bool_or(jsonb_typeof(e.value) = 'array') AS valued,
           sum(CASE WHEN jsonb_typeof(e.value) = 'array' THEN (e.value ->> 0)::numeric ELSE e.value::numeric END) AS n,
           sum((e.value ->> 1)::numeric) AS total, sum((e.value ->> 2)::numeric) AS total_sq,
           min((e.value ->> 3)::numeric) AS min_value, max((e.value ->> 4)::numeric) AS max_value
      FROM folded f
     CROSS JOIN unnest(f.cut_keys, f.cut_values) AS c(cut_key, cut_value)
     CROSS JOIN LATERAL (VALUES ('day', f.day), ('month', date_trunc('month', f.day)::date)) AS s(span, day)
     CROSS JOIN jsonb_each(f.tally) e
     GROUP BY 1, 2, 3, 4, 5
  ), merged AS (
    INSERT INTO statistics_rollups AS r (company_id, form_id, cut_key, cut_value, span, day, responses, tally)
    SELECT p_company, p_form, cut_key, cut_value, span, day,
           coalesce(sum(n) FILTER (WHERE key = '||responses'), 0),
           jsonb_object_agg(key, CASE WHEN valued THEN jsonb_build_array(n, total, total_sq, min_value, max_value) ELSE to_jsonb(n) END)
      FROM items
     GROUP BY cut_key, cut_value, span, day
    ON CONFLICT (company_id, form_id, cut_key, cut_value, span, day) DO UPDATE SET
      responses = r.responses + excluded.responses,
      tally = statistics_tally_add(r.tally, excluded.tally)
  )
  SELECT count(*) FROM folded;
$$;
