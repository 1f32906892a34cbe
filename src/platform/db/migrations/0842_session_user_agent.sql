-- "My account" lists the person's sessions with the browser each came from, so a session they do not
-- recognise can be signed out. Bounded: the header is the client's to choose.
ALTER TABLE sessions ADD COLUMN user_agent text CHECK (length(user_agent) <= 400);
