/** Access keys: generated with a cryptographic RNG, stored only as a SHA-256 hash, compared in constant time. */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const KEY_LENGTH = 8;

/** A fresh 8-character key of [a-z0-9], each character uniform. */
export function generateKey(): string {
  let key = '';
  for (let i = 0; i < KEY_LENGTH; i++) key += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return key;
}

/** The stored form of a key: hex SHA-256. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The same hash, computed off the main thread: used where a lock change reads, awaits, then swaps. */
export async function hashKeyAsync(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
  return Buffer.from(digest).toString('hex');
}

/**
 * Constant-time check of a presented key against a stored hash. Keys are
 * case-insensitive (generated in lower case, read aloud or retyped in any), and
 * every surface's key (header, subprotocol, token, argument) comes through here.
 */
export function keyMatches(presented: string | undefined, storedHash: string | null): boolean {
  if (presented === undefined || storedHash === null) return false;
  const expected = Buffer.from(storedHash, 'hex');
  const actual = createHash('sha256').update(presented.toLowerCase(), 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Constant-time equality of two secrets of any length (the import token). */
export function secretsEqual(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}
