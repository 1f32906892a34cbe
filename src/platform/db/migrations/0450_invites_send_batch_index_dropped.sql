-- No statement looks invites up by their last send batch (a send selecting a batch finds its
-- invites through invite_messages), and a send updates send_batch_id on every invite it queues:
-- the index only cost a send of 100,000 invites 100,000 index entries.
DROP INDEX invites_send_batch_idx;
