/**
 * The worker of `quorum worker` in its own process, for the messages' crash test: it sends one
 * channel (CHANNEL: email or whatsapp) with the worker's own loop settings against DATABASE_URL,
 * SMTP_URL and the company's WhatsApp channel, on a manual clock standing at CLOCK_AT, and is
 * killed with SIGKILL.
 */
import { loadConfig } from '../src/platform/config.js';
import { createContext } from '../src/platform/context.js';
import { ManualClock } from '../src/lib/clock.js';
import { startWorker } from '../src/platform/jobs/worker.js';

const channel = process.env.CHANNEL;
const ctx = await createContext(loadConfig(), { poolSize: 4, clock: new ManualClock(process.env.CLOCK_AT) });
await startWorker(ctx, {
  kinds: [channel === 'whatsapp' ? 'whatsapp' : 'email'],
  log: (level, message) => level === 'error' && process.stderr.write(`worker: ${message}\n`),
});
