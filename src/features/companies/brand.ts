/**
 * A company's brand on its respondent pages and e-mail: a colour and a logo.
 *
 * The colour is the pages' accent: the background of buttons and chosen scale points under white
 * text, and the colour of secondary buttons, move buttons and the progress bar on white. One
 * check covers every use: its contrast with white must reach WCAG AA for text (4.5:1).
 *
 * The logo is an image the company uploads, kept and served by Quorum (never a URL of another
 * site: the pages make no third-party request, and nothing is fetched on the company's behalf):
 * PNG, JPEG or WebP, at most 100 KB, recognised by its bytes, not by a declared type.
 */
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.js';
import { ApiError, validationError, type FieldError } from '../../lib/errors.js';
import { fieldError } from '../../lib/field-errors.js';
import type { NoDeps } from '../../lib/service.js';
import type { DbOrTx } from '../../platform/db/database.js';
import { companies, companyLogos } from '../../platform/db/schema.js';

export const BRAND_COLOR_RE = /^#[0-9a-fA-F]{6}$/;
/** WCAG 2 AA, normal text. */
export const MIN_CONTRAST = 4.5;
export const MAX_LOGO_BYTES = 100 * 1024;

/** WCAG 2 relative luminance of a #RRGGBB colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of a #RRGGBB colour with white (1 to 21). */
export function contrastWithWhite(hex: string): number {
  return 1.05 / (luminance(hex) + 0.05);
}

/** The faults of a brand colour (null clears it): the spelling, then the contrast with white. */
export function brandColorErrors(color: string | null | undefined): FieldError[] {
  if (color === undefined || color === null) return [];
  if (!BRAND_COLOR_RE.test(color)) return [fieldError('brandColor', 'invalid_format', 'must be a colour as #RRGGBB, e.g. #1d4ed8')];
  const ratio = contrastWithWhite(color);
  if (ratio >= MIN_CONTRAST) return [];
  const shown = Math.floor(ratio * 100) / 100;
  return [fieldError('brandColor', 'invalid_value', `contrast with white is ${shown}:1; WCAG AA asks at least ${MIN_CONTRAST}:1 (white text on it, and it as text on white): choose a darker colour`)];
}

const IMAGE_TYPES = [
  { contentType: 'image/png', ext: 'png', is: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { contentType: 'image/jpeg', ext: 'jpg', is: (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { contentType: 'image/webp', ext: 'webp', is: (b: Buffer) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
] as const;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LOGO_FILE_RE = /^[0-9a-f]{64}\.(png|jpg|webp)$/;

/** The path the respondent pages serve a company's logo at (absolute on the pages' address in e-mail). */
export const logoPath = (companyId: string, file: string) => `/r/logos/${companyId}/${file}`;

/** Stores the company's logo (replacing any), and names it in the settings the pages read. */
export async function setCompanyLogo(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string; bytes: Buffer }): Promise<{ file: string }> {
  const { companyId, bytes } = input;
  if (bytes.length === 0 || bytes.length > MAX_LOGO_BYTES) throw validationError([fieldError('logo', bytes.length === 0 ? 'required' : 'too_large', `must be an image of at most ${MAX_LOGO_BYTES / 1024} KB`)]);
  const type = IMAGE_TYPES.find((candidate) => candidate.is(bytes));
  if (!type) throw validationError([fieldError('logo', 'invalid_value', 'must be a PNG, JPEG or WebP image')]);
  const file = `${createHash('sha256').update(bytes).digest('hex')}.${type.ext}`;
  const now = deps.clock.now();
  return db.transaction(async (tx) => {
    const [company] = await tx.update(companies).set({ settings: sql`${companies.settings} || ${JSON.stringify({ logo: file })}::jsonb`, updatedAt: now }).where(eq(companies.id, companyId)).returning({ id: companies.id });
    if (!company) throw new ApiError('NOT_FOUND', 'Company not found.');
    const row = { companyId, file, contentType: type.contentType, bytes, updatedAt: now };
    await tx.insert(companyLogos).values(row).onConflictDoUpdate({ target: companyLogos.companyId, set: { file, contentType: row.contentType, bytes, updatedAt: now } });
    return { file };
  });
}

/** Removes the company's logo (nothing to do when it has none). */
export async function removeCompanyLogo(db: DbOrTx, deps: { clock: Clock }, input: { companyId: string }): Promise<void> {
  const { companyId } = input;
  await db.transaction(async (tx) => {
    await tx.update(companies).set({ settings: sql`${companies.settings} - 'logo'`, updatedAt: deps.clock.now() }).where(eq(companies.id, companyId));
    await tx.delete(companyLogos).where(eq(companyLogos.companyId, companyId));
  });
}

/** The logo a page asks for, when it is the company's current one; an old or unknown name is null. */
export async function readCompanyLogo(db: DbOrTx, _deps: NoDeps, input: { companyId: string; file: string }) {
  if (!UUID_RE.test(input.companyId) || !LOGO_FILE_RE.test(input.file)) return null;
  const [row] = await db
    .select({ contentType: companyLogos.contentType, bytes: companyLogos.bytes })
    .from(companyLogos)
    .where(and(eq(companyLogos.companyId, input.companyId), eq(companyLogos.file, input.file)));
  return row ?? null;
}
