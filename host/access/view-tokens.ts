/** View tokens (docs/sharing.md): 128 random bits as `v_` and 22 base64url characters, stored only as their SHA-256. */
import { createHash, randomBytes } from 'node:crypto';

const VIEW_TOKEN_BYTES = 16;

/** A fresh token from the cryptographic RNG: 16 bytes are exactly 22 base64url characters. */
export function generateViewToken(): string {
  return `v_${randomBytes(VIEW_TOKEN_BYTES).toString('base64url')}`;
}

/** The stored form of a token: hex SHA-256, case kept (a token is base64url, unlike a key). */
export function hashViewToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
