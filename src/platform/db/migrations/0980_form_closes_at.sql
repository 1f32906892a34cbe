-- settings.closesAt of a form definition: from this instant the form takes no more answers, as if
-- closed by hand (its links answer 410 FORM_CLOSED, the lists show it closed). NULL: no closing date.
ALTER TABLE forms ADD COLUMN closes_at timestamptz(3);
