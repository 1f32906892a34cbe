import type { DemoSeeder } from '../../demo/index.js';
import { devMailbox } from './dev-mailbox.js';

/**
 * Delivers the demo's due e-mail messages (the invites seeder's first sends) once through the
 * e-mail kind of the outbound loop, into the development mailbox (readable at /dev/mail).
 */
export const seedDemoMail: DemoSeeder = async (ctx) => {
  // Loaded here: the e-mail kind brings the SMTP package, which the CLI and the context never load.
  const { emailKind } = await import('./email-kind.js');
  const kind = emailKind(ctx, devMailbox(ctx.db, ctx));
  try {
    const items = await kind.claim(ctx, { now: ctx.clock.now(), limit: 100, perTarget: 100, held: new Map(), leaseMs: 60_000, sweep: true });
    const results = await Promise.all(items.map(async (item) => ({ item, result: await kind.send(item, ctx.clock.now()) })));
    await kind.record(ctx, results);
  } finally {
    await kind.close?.();
  }
};
