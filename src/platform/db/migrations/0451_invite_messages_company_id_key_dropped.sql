-- Nothing refers to invite_messages by (company_id, id): no foreign key points at it and every
-- lookup of a message goes by its primary key (id). The constraint's index only cost a send one
-- more index entry per message (100,000 for a send to 100,000 invites).
ALTER TABLE invite_messages DROP CONSTRAINT invite_messages_company_id_id_key;
