import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Webhook secrets at rest. A signing secret must be readable to sign, so it cannot be hashed like
 * an API key: it is sealed with AES-256-GCM under a key derived (HKDF-SHA256) from SECRET_KEY.
 * The subscription id is the additional authenticated data, so a sealed secret copied onto
 * another subscription's row does not open. Changing SECRET_KEY makes existing secrets unreadable
 * (rotate every subscription's secret afterwards).
 *
 * Layout: version (1 byte) | IV (12) | tag (16) | ciphertext.
 */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

export interface SecretBox {
  seal(secret: string, subscriptionId: string): Buffer;
  open(sealed: Buffer, subscriptionId: string): string;
}

export function secretBox(secretKey: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'quorum webhook secrets v1', 32));
  return {
    seal(secret, subscriptionId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(subscriptionId));
      const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]);
    },
    open(sealed, subscriptionId) {
      if (sealed.length <= HEADER_BYTES || sealed[0] !== VERSION) throw new Error('The sealed webhook secret is malformed.');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 1 + IV_BYTES))
        .setAAD(Buffer.from(subscriptionId))
        .setAuthTag(sealed.subarray(1 + IV_BYTES, HEADER_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(HEADER_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}
