-- Randomisation (issue 29): the order a respondent was shown, for the sections that shuffle
-- questions or options (section id -> question ids, question id -> option ids). Null when no
-- section shuffles, or when the response came without a rendered page (API, import, demo).
-- Nullable and without a default: adding it rewrites no row.
ALTER TABLE responses ADD COLUMN presented_order jsonb;
