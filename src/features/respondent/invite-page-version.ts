import { and, eq, sql } from 'drizzle-orm';
import { batchWhileBusy } from '../../platform/db/batch-while-busy.js';
import type { NoDeps } from '../../lib/service.js';
import type { Db } from '../../platform/db/database.js';
import { companies, formVersions, inviteDrafts, invites } from '../../platform/db/schema.js';
import { TOKEN_RE } from './find-invite.js';

/**
 * What a personal link's page is drawn from, as one value that changes whenever any of it does:
 * the row versions (xmin) of the invite (status, stamps, name, dims, expiry), its draft and its
 * company (name, brand, locale), and the form's definition version (every definition write,
 * closing and reopening included, records one; the form row's own xmin also moves with each
 * response's count, which does not change the page). A named prepared statement, every page
 * view runs it: without a LIMIT, which drizzle would send as a parameter, and a plan that depends
 * on a parameter's value is planned again on every execution (about 0.8 ms here, 5× the lookup).
 */
function versionQuery(db: Db) {
  const draftVersion = sql`coalesce(${inviteDrafts}.xmin::text, '-')`;
  const formVersion = sql`coalesce((SELECT max(${formVersions.version}) FROM ${formVersions} WHERE ${formVersions.companyId} = ${invites.companyId} AND ${formVersions.formId} = ${invites.formId})::text, '-')`;
  return db
    .select({ token: invites.token, version: sql<string>`${invites}.xmin::text || '.' || ${companies}.xmin::text || '.' || ${formVersion} || '.' || ${draftVersion}` })
    .from(invites)
    .innerJoin(companies, eq(companies.id, invites.companyId))
    .leftJoin(inviteDrafts, and(eq(inviteDrafts.companyId, invites.companyId), eq(inviteDrafts.inviteId, invites.id)))
    .where(sql`${invites.token} = ANY(${sql.placeholder('tokens')}::text[])`)
    .prepare('invite_page_versions');
}

/**
 * The page views that arrive while a read is in the database share the next one (batchWhileBusy):
 * under load one statement and one pool connection serve many views. Not a cache: every view
 * waits for a read that starts after it arrived.
 */
function versionLoader(db: Db) {
  const query = versionQuery(db);
  return batchWhileBusy<string, string | null>(async (tokens) => {
    const rows = await query.execute({ tokens: [...new Set(tokens)] });
    const byToken = new Map(rows.map((row) => [row.token, row.version]));
    return tokens.map((token) => byToken.get(token) ?? null);
  }, 100);
}
const loaders = new WeakMap<Db, ReturnType<typeof versionLoader>>();

/** The version of the invite's page; null for a token that names no invite. */
export async function invitePageVersion(db: Db, _deps: NoDeps, input: { token: string }): Promise<string | null> {
  const { token } = input;
  if (!TOKEN_RE.test(token)) return null;
  const loader = loaders.get(db) ?? loaders.set(db, versionLoader(db)).get(db)!;
  return loader(token);
}
