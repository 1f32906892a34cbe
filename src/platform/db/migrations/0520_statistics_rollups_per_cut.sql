-- Statistics rollups, one row per form, cut and span holding every counted item of that cut in
-- one jsonb (src/features/statistics). Migration 0500 kept one row per item: on the demo's
-- 17-question form that was 141 rows stored and about 400 upserted per response (items × cuts),
-- 73 MB of rollups for 3.6 MB of responses. Now a response is one upsert of one row per cut and
-- span (whole form, each dim value, each org ancestor; its UTC day and its month).
--
-- span 'day' rows are kept per UTC day (day = that day); span 'month' rows (day = the first of
-- the month) are the sum of the month's day rows, so a period reads whole months from month
-- rows and only its partial months from day rows: O(months + edge days) rows per cut.
-- tally: { "<questionId>|<questionType>|<item>": n } for counted items, or
-- [n, total, total_sq, min, max] for items with a value (numbers, ranks, the responses' times);
-- the items are those of 0500 (answered, o:<option>, c:<row>:<column>, v:<value>, b:<bucket>),
-- jsonb numbers are numeric, so sums stay exact and merge in any order.
-- responses: the cut's response count over the span (the '||responses' item's n), read alone by
-- filtered totals and the anonymous period blocks without opening the tally.
ALTER TABLE statistics_rollups RENAME TO statistics_rollup_items;
ALTER INDEX statistics_rollups_pkey RENAME TO statistics_rollup_items_pkey;
DROP INDEX statistics_rollups_day_idx;

CREATE TABLE statistics_rollups (
  company_id  uuid NOT NULL,
  form_id     uuid NOT NULL,
  cut_key     text NOT NULL,
  cut_value   text NOT NULL,
  span        text NOT NULL CHECK (span IN ('day', 'month')),
  day         date NOT NULL,
  responses   bigint NOT NULL,
  tally       jsonb NOT NULL,
  PRIMARY KEY (company_id, form_id, cut_key, cut_value, span, day),
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE
);
-- A day's or month's rows, for deleteResponse and the bulk rebuild (rebuild-rollups.ts).
CREATE INDEX statistics_rollups_day_idx ON statistics_rollups (company_id, form_id, span, day);

-- Adds the tally b (one response's items) to a: one pass over b's keys, a's other keys kept.
CREATE FUNCTION statistics_tally_add(a jsonb, b jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT a || coalesce(jsonb_object_agg(e.key, CASE
      WHEN a -> e.key IS NULL THEN e.value
      WHEN jsonb_typeof(e.value) = 'number' THEN to_jsonb((a -> e.key)::numeric + e.value::numeric)
      ELSE jsonb_build_array(
        (a -> e.key ->> 0)::numeric + (e.value ->> 0)::numeric,
        (a -> e.key ->> 1)::numeric + (e.value ->> 1)::numeric,
        (a -> e.key ->> 2)::numeric + (e.value ->> 2)::numeric,
        least((a -> e.key ->> 3)::numeric, (e.value ->> 3)::numeric),
        greatest((a -> e.key ->> 4)::numeric, (e.value ->> 4)::numeric))
    END), '{}'::jsonb)
  FROM jsonb_each(b) AS e
$$;

-- Rewrites the month rows of one form for the months p_from..p_to (first days) from its day
-- rows: after a day is rebuilt (a deletion: min and max cannot be subtracted) or a bulk load.
CREATE FUNCTION statistics_rollups_roll_months(p_company uuid, p_form uuid, p_from date, p_to date) RETURNS void LANGUAGE sql AS $$
  DELETE FROM statistics_rollups
   WHERE company_id = p_company AND form_id = p_form AND span = 'month' AND day >= p_from AND day <= p_to;
  INSERT INTO statistics_rollups (company_id, form_id, cut_key, cut_value, span, day, responses, tally)
  SELECT p_company, p_form, cut_key, cut_value, 'month', month,
         coalesce(sum(n) FILTER (WHERE key = '||responses'), 0),
         jsonb_object_agg(key, CASE WHEN valued THEN jsonb_build_array(n, total, total_sq, min_value, max_value) ELSE to_jsonb(n) END)
  FROM (
    SELECT r.cut_key, r.cut_value, date_trunc('month', r.day)::date AS month, e.key,
           bool_or(jsonb_typeof(e.value) = 'array') AS valued,
           sum(CASE WHEN jsonb_typeof(e.value) = 'array' THEN (e.value ->> 0)::numeric ELSE e.value::numeric END) AS n,
           sum((e.value ->> 1)::numeric) AS total, sum((e.value ->> 2)::numeric) AS total_sq,
           min((e.value ->> 3)::numeric) AS min_value, max((e.value ->> 4)::numeric) AS max_value
      FROM statistics_rollups r CROSS JOIN jsonb_each(r.tally) e
     WHERE r.company_id = p_company AND r.form_id = p_form AND r.span = 'day'
       AND r.day >= p_from AND date_trunc('month', r.day)::date <= p_to
     GROUP BY 1, 2, 3, 4
  ) items
  GROUP BY cut_key, cut_value, month;
$$;

-- Existing rollups move over as they are (no figure recomputed), then their months are summed.
INSERT INTO statistics_rollups (company_id, form_id, cut_key, cut_value, span, day, responses, tally)
SELECT company_id, form_id, cut_key, cut_value, 'day', day,
       coalesce(sum(n) FILTER (WHERE question_id = '' AND item = 'responses'), 0),
       jsonb_object_agg(question_id || '|' || question_type || '|' || item,
         CASE WHEN min_value IS NULL THEN to_jsonb(n) ELSE jsonb_build_array(n, total, total_sq, min_value, max_value) END)
  FROM statistics_rollup_items
 WHERE n <> 0
 GROUP BY company_id, form_id, cut_key, cut_value, day;

SELECT statistics_rollups_roll_months(company_id, form_id, '-infinity', 'infinity')
  FROM (SELECT DISTINCT company_id, form_id FROM statistics_rollups) forms;

DROP TABLE statistics_rollup_items;
