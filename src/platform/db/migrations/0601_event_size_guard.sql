-- Events built in SQL (the overdue sweep's treatment.overdue) are held to the size bound that
-- buildEvent checks in JS: the statement that would store a larger one fails with SQLSTATE Q0413,
-- which storeEventsFrom turns into 413 PAYLOAD_TOO_LARGE.
CREATE FUNCTION event_too_large(event_type text, bytes integer, max_bytes integer) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The % event would be % bytes; events are limited to %.', event_type, bytes, max_bytes
    USING ERRCODE = 'Q0413', DETAIL = json_build_object('type', event_type, 'bytes', bytes, 'limit', max_bytes)::text;
END $$;
