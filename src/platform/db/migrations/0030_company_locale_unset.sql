-- A company's locale is optional now (issue 25): until now every company was created with
-- "en", so a stored "en" cannot tell a choice from the old default. Unset it: the outcome is the
-- same (English is also the last fallback of pages and messages when no locale is set), and the
-- panel shows the company as not having chosen, as a new company is.
UPDATE companies SET settings = settings - 'locale' WHERE settings->>'locale' = 'en';
