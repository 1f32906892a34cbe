-- The panel pages through a company's suppression list newest first (created_at DESC, address):
-- this index serves that order and its LIMIT/OFFSET without sorting the whole list.
CREATE INDEX suppressions_company_newest ON suppressions (company_id, created_at DESC, address);
