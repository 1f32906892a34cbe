-- settings.language of a form definition: the language of its respondent pages (en, pt-BR, es);
-- NULL falls back to the company's locale, then to the respondent's Accept-Language.
ALTER TABLE forms ADD COLUMN language text CHECK (language IN ('en', 'pt-BR', 'es'));
