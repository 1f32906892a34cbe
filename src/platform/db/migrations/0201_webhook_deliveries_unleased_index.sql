-- The per-subscription cap is kept by each worker for its own requests (slots free as soon as an
-- answer is in, before it is recorded), so leased deliveries are no longer counted in SQL.
DROP INDEX webhook_deliveries_leased_idx;
