import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { defineSweep, inBatches, retentionCutoff } from '../../platform/jobs/define-sweep.js';
import { uploadDir } from './store-upload.js';

/** How long an upload of a personal link that no response uses and no draft may still use is kept. */
export const UNUSED_UPLOAD_DAYS = 7;
const BATCH = 500;

/**
 * Removes uploads that never became part of a response: a public link's once its page's submission
 * token has expired (PUBLIC_LINK_TOKEN_HOURS after the upload at the latest: nothing can claim it
 * then), a personal link's after a week unless its invite still has a saved draft (which may name
 * them). Rows go first, in batches claimed with SKIP LOCKED; their files follow once the rows are
 * gone, so no row ever names a missing file. Used submission tokens, the pages' kept states
 * (pages/page-state.ts) and public links' saved drafts (save-public-draft.ts) go once expired.
 */
export const pruneUploads = defineSweep({
  name: 'respondent.prune-uploads',
  cron: '41 * * * *',
  async sweep(ctx) {
    const now = ctx.clock.now();
    const weekAgo = retentionCutoff(ctx, UNUSED_UPLOAD_DAYS);
    const tokenAgo = new Date(now.getTime() - ctx.config.publicLinkTokenHours * 3_600_000).toISOString();
    const files = await inBatches(BATCH, async (limit) => {
      const { rows } = await ctx.db.execute<{ id: string; companyId: string }>(sql`
        DELETE FROM respondent_uploads WHERE id IN (
          SELECT u.id FROM respondent_uploads u
           WHERE u.response_id IS NULL
             AND CASE WHEN u.invite_id IS NULL THEN u.created_at <= ${tokenAgo}::timestamptz ELSE u.created_at < ${weekAgo}::timestamptz END
             AND NOT EXISTS (SELECT 1 FROM invite_drafts d WHERE d.company_id = u.company_id AND d.invite_id = u.invite_id)
           LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, company_id AS "companyId"`);
      await Promise.all(rows.map((row) => rm(join(uploadDir(ctx.config.dataDir, row.companyId), row.id), { force: true })));
      return rows.length;
    });
    const { rowCount } = await ctx.db.execute(sql`DELETE FROM public_link_submissions WHERE expires_at < ${now.toISOString()}::timestamptz`);
    const states = await ctx.db.execute(sql`DELETE FROM respondent_page_states WHERE expires_at < ${now.toISOString()}::timestamptz`);
    const drafts = await ctx.db.execute(sql`DELETE FROM public_link_drafts WHERE expires_at < ${now.toISOString()}::timestamptz`);
    return files + (rowCount ?? 0) + (states.rowCount ?? 0) + (drafts.rowCount ?? 0);
  },
});
