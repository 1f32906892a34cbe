import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/database.js';

export interface EnqueueOptions {
  runAt?: Date;
  /** Deduplicates: a pending job with the same key is replaced instead of added. */
  jobKey?: string;
  maxAttempts?: number;
}

/**
 * Adds a job inside the caller's transaction, so the job exists exactly when the business
 * change that caused it has committed. graphile-worker's NOTIFY wakes a worker at commit.
 */
export async function enqueue(tx: DbOrTx, task: string, payload: unknown, options: EnqueueOptions = {}): Promise<void> {
  await tx.execute(sql`SELECT graphile_worker.add_job(
    ${task}::text,
    ${JSON.stringify(payload ?? {})}::json,
    run_at => ${options.runAt?.toISOString() ?? null}::timestamptz,
    job_key => ${options.jobKey ?? null}::text,
    max_attempts => ${options.maxAttempts ?? 25}::int
  )`);
}
