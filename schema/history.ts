/**
 * Input of the history routes (docs/history.md): version numbers,
 * pages and the starting point of a change list. Query strings and path
 * segments arrive as text, tool arguments as numbers; both are accepted, and
 * anything but a plain positive integer (a sign, a fraction, an exponent,
 * more digits than a safe integer holds, a repeated parameter) is refused.
 */
import { z } from 'zod';
import { Author } from './common.js';
import { HISTORY_PAGE_DEFAULT, HISTORY_PAGE_MAX } from './limits.js';
import { Cursor } from './pages.js';

const integer = (min: number, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,15}$/, { error: 'must be a whole number' })
          .transform(Number),
      ],
      { error: 'must be a whole number' },
    )
    .pipe(
      z
        .number()
        .int({ error: 'must be a whole number' })
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );

/** A version number: versions count from 1. */
export const VersionNumber = integer(1, Number.MAX_SAFE_INTEGER);

/** An ETag as `/json` and `wait` give it; the quotes may be left out. */
export const EtagText = z
  .string()
  .min(1)
  .max(128, { error: 'is not an ETag of this service' })
  .regex(/^(W\/)?"?[A-Za-z0-9_-]+"?$/, { error: 'is not an ETag of this service' })
  .transform((etag) => `"${etag.replace(/^W\//, '').replace(/"/g, '')}"`)
  .describe('ETag you last saw');

/** GET /versions: `before` (exclusive) and `limit`. */
export const VersionsQuery = z.object({
  before: VersionNumber.optional(),
  limit: integer(1, HISTORY_PAGE_MAX).default(HISTORY_PAGE_DEFAULT),
});
export type VersionsQuery = z.infer<typeof VersionsQuery>;

/** GET /changes: exactly one of `since` (a version) and `since_etag`, or the `cursor` of a page, which carries its start. */
export const ChangesQuery = z
  .object({ since: VersionNumber.optional(), since_etag: EtagText.optional(), cursor: Cursor.optional() })
  .refine((query) => query.cursor !== undefined || (query.since === undefined) !== (query.since_etag === undefined), {
    error: 'give exactly one of since and since_etag',
    path: ['since'],
  });
export type ChangesQuery = z.infer<typeof ChangesQuery>;

/** The `{version}` of a history path. */
export const VersionParams = z.object({ version: VersionNumber });

/** POST /versions/{v}/restore: an optional body naming who restores (a browser sends its `user:<uuid>`), as every write may. */
export const RestoreBody = z.object({ author: Author.optional() });
