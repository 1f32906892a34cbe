import { randomBase62 } from '../../lib/ids.js';
import { hashSecret } from '../../lib/secret-token.js';

/** Token format (docs/contract.md, API keys): qk_<keyId 12 base62>_<secret 43 base62 ≈ 256 bits>. */
const TOKEN_RE = /^qk_([0-9A-Za-z]{12})_([0-9A-Za-z]{43})$/;

export interface MintedToken {
  token: string;
  keyId: string;
  secretHash: Buffer;
}

export function mintToken(): MintedToken {
  const keyId = randomBase62(12);
  const secret = randomBase62(43);
  return { token: `qk_${keyId}_${secret}`, keyId, secretHash: hashSecret(secret) };
}

export function parseToken(token: string): { keyId: string; secret: string } | null {
  const match = TOKEN_RE.exec(token);
  return match ? { keyId: match[1], secret: match[2] } : null;
}
