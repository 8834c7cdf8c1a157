/**
 * The view token's pattern, the one place it is written (docs/sharing.md):
 * `v_` and 22 characters of base64url, never a UUID, so no client takes one
 * for a board id. Its own module without zod, as uuid.ts, so that the
 * browser app's entry can tell a token in its URL before the app loads.
 */

const VIEW_TOKEN_SOURCE = 'v_[A-Za-z0-9_-]{22}';
export const VIEW_TOKEN_PATTERN = new RegExp(`^${VIEW_TOKEN_SOURCE}$`);

/** A view token somewhere inside a text (a view link `{base_url}/#<token>`): its first match. */
export const VIEW_TOKEN_IN_TEXT = new RegExp(`(?<![A-Za-z0-9_-])${VIEW_TOKEN_SOURCE}(?![A-Za-z0-9_-])`);

/** Every view token in a text (a logged path), for replacing them all. */
export const VIEW_TOKENS_IN_TEXT = new RegExp(VIEW_TOKEN_IN_TEXT.source, 'g');

/** True for a string shaped like a view token (case matters: a token is base64url). */
export function isViewToken(value: unknown): boolean {
  return typeof value === 'string' && VIEW_TOKEN_PATTERN.test(value);
}
