import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { defineSweep, inBatches, retentionCutoff } from '../../jobs/define-sweep.js';
import { uploadDir } from './store-upload.js';

/** How long an upload no response uses and no draft may still use is kept. */
export const UNUSED_UPLOAD_DAYS = 7;
const BATCH = 500;

/**
 * Removes uploads that never became part of a response: older than a week, and not on an invite
 * that still has a saved draft (which may name them). Rows go first, in batches claimed with SKIP
 * LOCKED; their files follow once the rows are gone, so no row ever names a missing file.
 */
export const pruneUploads = defineSweep({
  name: 'respondent.prune-uploads',
  cron: '41 3 * * *',
  async sweep(ctx) {
    const cutoff = retentionCutoff(ctx, UNUSED_UPLOAD_DAYS);
    return inBatches(BATCH, async (limit) => {
      const { rows } = await ctx.db.execute<{ id: string; companyId: string }>(sql`
        DELETE FROM respondent_uploads WHERE id IN (
          SELECT u.id FROM respondent_uploads u
           WHERE u.response_id IS NULL AND u.created_at < ${cutoff}::timestamptz
             AND NOT EXISTS (SELECT 1 FROM invite_drafts d WHERE d.company_id = u.company_id AND d.invite_id = u.invite_id)
           LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, company_id AS "companyId"`);
      await Promise.all(rows.map((row) => rm(join(uploadDir(ctx.config.dataDir, row.companyId), row.id), { force: true })));
      return rows.length;
    });
  },
});
