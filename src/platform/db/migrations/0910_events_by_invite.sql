-- The panel's invite timeline reads one invite's events (data.inviteId) within its company:
-- without this index that is a scan of the company's last 30 days of events.
CREATE INDEX events_invite_idx ON events (company_id, (data->>'inviteId'), occurred_at) WHERE type LIKE 'invite.%';
