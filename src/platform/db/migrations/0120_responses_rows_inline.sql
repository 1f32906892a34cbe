-- A response's answers stay in its heap row up to a row of about 8 KB (the default moves any
-- row over 2 KB into TOAST: four in five of a 20-question form's rows). A page of a rare dim
-- value then reads one heap page per response, which the side-table path fetches with a bitmap
-- heap scan that Postgres prefetches (list-responses.ts, dimScanSql), instead of a heap page
-- and a TOAST page one after the other. Larger rows still go to TOAST. Rows stored before this
-- keep their layout until the table is rewritten (VACUUM FULL). Measured in bench/README.md,
-- responses-scan.
ALTER TABLE responses SET (toast_tuple_target = 8160);
