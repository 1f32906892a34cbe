import { randomBytes, randomFillSync } from 'node:crypto';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';

export type IdGenerator = () => string;

/**
 * UUID version 7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Generated in the
 * application because Postgres 15 has no native uuidv7().
 */
// One system call per 256 ids instead of one per id: ids are minted on every request.
const POOL_SIZE = 16 * 256;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

function random16(): Buffer {
  if (poolOffset + 16 > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

/**
 * Ids minted by one generator in the same millisecond sort in minting order (RFC 9562 §6.2
 * method 1: a 42-bit counter in rand_a and the top of rand_b, seeded randomly in its lower half
 * each new millisecond), so records ordered by (time, id) keep the order they were made in, even
 * under a test's frozen clock.
 */
function monotonicUuidv7(): (ms: number) => string {
  let lastMs = -1;
  let counter = 0;
  return (ms) => {
    const bytes = random16();
    const seed = bytes.readUIntBE(6, 6) % 2 ** 41;
    counter = ms === lastMs && counter < 2 ** 42 - 1 ? counter + 1 : seed;
    lastMs = ms;
    bytes.writeUIntBE(ms, 0, 6);
    bytes.writeUInt16BE(0x7000 | Math.floor(counter / 2 ** 30), 6);
    bytes[8] = 0x80 | (Math.floor(counter / 2 ** 24) & 0x3f);
    bytes.writeUIntBE(counter % 2 ** 24, 9, 3);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

const systemIds = monotonicUuidv7();

export function uuidv7(ms: number = Date.now()): string {
  return systemIds(ms);
}

/** A generator of its own, so ids from another clock (Date.now() beside a test's clock) never reset its counter. */
export function idGeneratorFor(clock: Clock = systemClock): IdGenerator {
  const next = monotonicUuidv7();
  return () => next(clock.now().getTime());
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are opaque to clients; anything that is not a UUID simply matches nothing. */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 string (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
