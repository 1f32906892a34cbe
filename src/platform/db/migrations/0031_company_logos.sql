-- A company's logo (issue 25), kept and served by Quorum itself: the respondent pages show it
-- without any request to another site, and an e-mail links it at the pages' own address.
-- file: "<sha256 hex>.<ext>" of the bytes, the name it is served under (content-addressed, so a
-- new logo is a new URL and the old one can be cached forever). One logo per company.
CREATE TABLE company_logos (
  company_id    uuid PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  file          text NOT NULL,
  content_type  text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp')),
  bytes         bytea NOT NULL CHECK (octet_length(bytes) BETWEEN 1 AND 102400),
  updated_at    timestamptz(3) NOT NULL
);
