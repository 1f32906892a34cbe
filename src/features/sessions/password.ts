import { hash, verify, type Algorithm } from '@node-rs/argon2';

/** Password length rules of every surface (set-password, reset, CLI). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

/** argon2id with the OWASP baseline (19 MiB, 2 passes, 1 lane); the parameters travel in the PHC string. */
const OPTIONS = { algorithm: 2 as Algorithm /* Argon2id: the package's enum is const, unreadable under isolatedModules */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummy: Promise<string> | null = null;

/**
 * Checks a password against a stored hash. Without a hash (unknown address, no password set yet) it
 * still verifies against a dummy hash, so the answer takes as long as for a wrong password.
 */
export async function passwordMatches(storedHash: string | null, password: string): Promise<boolean> {
  dummy ??= hashPassword('not-a-password-anyone-has');
  const matches = await verify(storedHash ?? (await dummy), password).catch(() => false);
  return storedHash !== null && matches;
}
