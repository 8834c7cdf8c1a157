/**
 * The board-id pattern, the one place it is written. Its own module without
 * zod, so that the browser app's entry (web/src/main.ts) can check a URL's
 * board id before the app and its schemas have loaded.
 */

/** A UUID of any version, either case. */
const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`, 'i');

/** A board id somewhere inside a text (a board URL such as `{base_url}/#<id>`): its first match. */
export const UUID_IN_TEXT = new RegExp(UUID_SOURCE, 'i');

/** True for a string shaped like a UUID (any version); board ids are UUID v4. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
