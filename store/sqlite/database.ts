/**
 * The embedded SQLite database in DATA_DIR: one file holds the board registry,
 * the stored document states (the table of @hocuspocus/extension-sqlite), the
 * journal of Y updates, the image blobs and the board history, so that one SQLite transaction can
 * span all of them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { schema as documentsSchema } from '@hocuspocus/extension-sqlite';
import Database from 'better-sqlite3';
import { answersTable } from '../answer-rows.js';
import { BOARDS_TABLE } from '../registry-row.js';
import { versionsTables } from '../version-rows.js';
import { viewLinksTable } from '../view-link-rows.js';

export type Db = Database.Database;

/** The row a statement always answers (a PRAGMA, a row this transaction reads or wrote): none is a bug here. */
export function onlyRow<T>(row: T | undefined | null, what: string): T {
  if (row === undefined || row === null) throw new Error(`SQLite: ${what} answered no row`);
  return row;
}

const SCHEMA = `
${documentsSchema};

-- Y updates appended synchronously before a change is acknowledged; folded into
-- "documents" when Hocuspocus stores the document. seq is the rowid without
-- AUTOINCREMENT (which rewrote sqlite_sequence on every append): a new row gets
-- the largest seq plus one, so a board's rows stay in order; a number may come
-- back once every row above it is compacted away, and nothing keeps numbers.
-- Files made before keep their AUTOINCREMENT table, which works the same.
-- No index by board: each append would dirty one index page per board written
-- in the commit. The store keeps each board's seqs in memory instead, from one
-- scan when the file opens (document-store.ts).
CREATE TABLE IF NOT EXISTS journal (
  seq INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  "update" BLOB NOT NULL
);
DROP INDEX IF EXISTS journal_by_name;

${BOARDS_TABLE}

-- Image payloads live outside the Y.Doc: an edit must not rewrite megabytes of images.
CREATE TABLE IF NOT EXISTS image_blobs (
  board_id TEXT NOT NULL,
  hash TEXT NOT NULL,
  data_url TEXT NOT NULL,
  PRIMARY KEY (board_id, hash)
);
${versionsTables('BLOB')}
${answersTable('BLOB')}
${viewLinksTable('INTEGER')}
`;

export const DATABASE_FILE = 'boards.sqlite';

/** WAL pages after which a commit checkpoints anyway (about 40 MB). */
const WAL_BACKSTOP_PAGES = 10_000;

/** How often the WAL is folded into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1_000;

/** Opens (creating if needed) the database in dataDir, in WAL mode. */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, DATABASE_FILE));
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a commit survives the process being killed (kill -9);
  // only an OS crash or power loss can drop the last commits, never corrupt.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Checkpoints run on their own thread, off the commits (a checkpoint inside a commit stalls that turn's
  // writes): this only bounds the WAL should that thread fall behind.
  db.pragma(`wal_autocheckpoint = ${WAL_BACKSTOP_PAGES}`);
  db.exec(SCHEMA);
  return db;
}
