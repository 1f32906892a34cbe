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

export function uuidv7(ms: number = Date.now()): string {
  const bytes = random16();
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function idGeneratorFor(clock: Clock = systemClock): IdGenerator {
  return () => uuidv7(clock.now().getTime());
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
