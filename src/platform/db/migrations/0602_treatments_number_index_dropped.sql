-- treatments_company_number_idx (company_id, number DESC) repeated the unique constraint's index
-- on (company_id, number), which GET /v1/treatments scans backwards just as well. Every update
-- of a case that is not HOT (the overdue sweep's mark, since overdue_notified_at is in the
-- overdue index's predicate) paid one more index entry for it.
DROP INDEX treatments_company_number_idx;
