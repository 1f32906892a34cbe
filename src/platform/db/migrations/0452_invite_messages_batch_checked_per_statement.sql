-- A message's send batch, checked once per statement instead of once per row.
--
-- The foreign key checked each of a send's 100,000 messages with its own lookup of the ONE batch
-- row the send had just inserted (a FOR KEY SHARE of the same tuple 100,000 times): 0.5-0.7 s of
-- an insert of 100,000 messages (bench/README.md, invites, "The batch key"). The same rule now
-- holds set-wise: an insert statement fails if any of its messages names no batch of its company
-- (the statement's distinct batches, each looked up once), a message's batch never changes, and
-- deleting batches deletes their messages, as ON DELETE CASCADE did. No other transaction can
-- delete a batch while its send is inserting (the batch is new and invisible to it), so nothing
-- is lost that the row-by-row check guarded. The foreign key to the invite stays: its row lock is
-- what keeps a concurrent deletion of an invite from leaving a message behind.
ALTER TABLE invite_messages DROP CONSTRAINT invite_messages_company_id_batch_id_fkey;

CREATE FUNCTION invite_messages_batch_exists() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A send's messages share one batch: the distinct pairs first, then one probe each.
  IF EXISTS (SELECT FROM (SELECT DISTINCT company_id, batch_id FROM new_messages) m
              WHERE NOT EXISTS (SELECT FROM invite_batches b WHERE b.company_id = m.company_id AND b.id = m.batch_id)) THEN
    RAISE EXCEPTION 'an invite message names no invite batch of its company'
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'invite_messages_batch_exists';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER invite_messages_batch_exists AFTER INSERT ON invite_messages
  REFERENCING NEW TABLE AS new_messages FOR EACH STATEMENT EXECUTE FUNCTION invite_messages_batch_exists();

CREATE FUNCTION invite_messages_batch_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the batch of an invite message never changes'
    USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'invite_messages_batch_exists';
END $$;

CREATE TRIGGER invite_messages_batch_fixed BEFORE UPDATE OF company_id, batch_id ON invite_messages
  FOR EACH ROW WHEN (OLD.company_id IS DISTINCT FROM NEW.company_id OR OLD.batch_id IS DISTINCT FROM NEW.batch_id)
  EXECUTE FUNCTION invite_messages_batch_fixed();

CREATE FUNCTION invite_batches_delete_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM invite_messages m USING gone_batches g WHERE m.company_id = g.company_id AND m.batch_id = g.id;
  RETURN NULL;
END $$;

CREATE TRIGGER invite_batches_delete_messages AFTER DELETE ON invite_batches
  REFERENCING OLD TABLE AS gone_batches FOR EACH STATEMENT EXECUTE FUNCTION invite_batches_delete_messages();
