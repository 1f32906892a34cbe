-- Statistics rollups (src/features/statistics): the figures of GET /forms/{id}/statistics and
-- /report, kept in the transaction that records (or deletes) a response, so a request reads
-- O(days x groups x items) rows instead of the responses.
--
-- One row per form, UTC day, cut and counted item. A cut is the whole form (cut_key '',
-- cut_value ''), one dim value (cut_key 'dim:<key>', cut_value the canonical value) or one org
-- unit's subtree (cut_key 'org', cut_value the unit id; a response counts in every ancestor).
-- question_id '' holds response-level items (responses, completed); otherwise the item is
-- 'answered', 'o:<option>', 'c:<row>:<column>', 'v:<value>' (exact scale buckets) or
-- 'b:<sketch bucket>' (NUMBER). question_type is part of the key: a question whose type changes
-- keeps its id, and figures of the old type must not mix with the new ones.
-- total/total_sq are numeric so sums are exact and merge in any order; min/max follow inserts
-- with LEAST/GREATEST and are recomputed from the day's responses when one is deleted.
CREATE TABLE statistics_rollups (
  company_id     uuid NOT NULL,
  form_id        uuid NOT NULL,
  cut_key        text NOT NULL,
  cut_value      text NOT NULL,
  day            date NOT NULL,
  question_id    text NOT NULL,
  question_type  text NOT NULL,
  item           text NOT NULL,
  n              bigint NOT NULL,
  total          numeric NOT NULL,
  total_sq       numeric NOT NULL,
  min_value      numeric,
  max_value      numeric,
  PRIMARY KEY (company_id, form_id, cut_key, cut_value, day, question_id, question_type, item),
  FOREIGN KEY (company_id, form_id) REFERENCES forms (company_id, id) ON DELETE CASCADE
);
-- A day's rows, for deleteResponse and bulk loads that rebuild one day (rebuild-rollups.ts).
CREATE INDEX statistics_rollups_day_idx ON statistics_rollups (company_id, form_id, day);
