/**
 * A failure of the storage itself as every surface answers it: 503
 * storage_unavailable, the change not stored, not a bug. Kept out of the
 * browser-safe domain: PostgreSQL's failures already arrive as that BoardError
 * (pg/database.ts), while SQLite's statements throw their own errors, read here
 * by their result code.
 */
import { BoardError, errors } from '../board/model/errors.js';

/** SQLite result codes that mean the storage cannot take a write now (full, read-only, I/O), not a bug. */
const STORAGE_FAILURES = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|PROTOCOL|NOTADB|CORRUPT)/;

/** True for an error of the storage itself: the change was not stored and may be retried later. */
export function isStorageFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && STORAGE_FAILURES.test(code);
}

/** The BoardError for an error the service knows (the domain's own, or a storage failure as 503); null for anything else. */
export function knownError(error: unknown): BoardError | null {
  if (error instanceof BoardError) return error;
  if (isStorageFailure(error)) return errors.storageUnavailable();
  return null;
}
