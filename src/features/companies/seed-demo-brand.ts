import type { WorkerContext } from '../../platform/jobs/define-task.js';
import { setCompanyLogo } from './brand.js';
import { updateCompanySettings } from './company-settings.js';

/** The demo school's logo: a white open book on a teal disc, 48×48 PNG (233 bytes). */
const DEMO_LOGO_PNG = 'iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAYAAABXAvmHAAAAsElEQVR42u3asQ6AIAwE0P6Bf+ro7+vsQCxQy/U4EgcTMffSMEAx0zA7rvMeecoGXw6JCp4O+St4CiQrfDgiO3goZHX4KQRK+GFEaQBa+C4Eang3ojQAPfwnojTAM7F3zM7rQpQGeEuHBHghtgR4vmu9z/xbFRBAa0AVEEBrQBUQIBqg/QACwINAAfBu6nUupNM54vPR/Y7Xyzc4KFpMFE0+mjYrRaOb5qoBzWUPhPEAhmlXRUK9L10AAAAASUVORK5CYII=';

/** Its teal, 5.5:1 against white (WCAG AA for text either way round). */
const DEMO_BRAND_COLOR = '#0f766e';

/** The demo company's look: its respondent pages and invitations carry its logo and colour. */
export async function seedDemoBrand(ctx: WorkerContext, company: { id: string }): Promise<void> {
  await updateCompanySettings(ctx.db, ctx, { companyId: company.id, patch: { brandColor: DEMO_BRAND_COLOR } });
  await setCompanyLogo(ctx.db, ctx, { companyId: company.id, bytes: Buffer.from(DEMO_LOGO_PNG, 'base64') });
}
