-- Every API instance caches verified keys; a change that can end a key's validity (revocation,
-- expiry, scopes, limit, deletion) is announced in the changing transaction, delivered at commit,
-- whichever path made it (API, CLI, a manual UPDATE). The payload is the token's key id.
CREATE FUNCTION notify_api_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('quorum_api_key_changed', OLD.key_id);
  RETURN NULL;
END
$$;

CREATE TRIGGER api_keys_notify_update
  AFTER UPDATE OF revoked_at, expires_at, scopes, rate_limit_per_min, secret_hash, key_id ON api_keys
  FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
        OR OLD.scopes IS DISTINCT FROM NEW.scopes OR OLD.rate_limit_per_min IS DISTINCT FROM NEW.rate_limit_per_min
        OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash OR OLD.key_id IS DISTINCT FROM NEW.key_id)
  EXECUTE FUNCTION notify_api_key_change();

CREATE TRIGGER api_keys_notify_delete
  AFTER DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION notify_api_key_change();
