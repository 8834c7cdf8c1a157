/**
 * Writes to a server's SQLite file from a second connection in the test's own
 * process, as an operator's sqlite3 shell would. The server commits in groups
 * once a burst of event-loop turns ends (store/sqlite/group-commit.ts), so
 * its write lock can be held while this runs: waiting for it synchronously
 * (busy_timeout) would block the very turn that releases it. Retried after
 * yielding instead. Resolves once the server sees the change: its registry
 * looks for other connections' commits every 100 ms (store/sqlite/registry.ts).
 */

import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';

export async function writeBeside(db: Database.Database, sql: string, ...params: unknown[]): Promise<void> {
  db.pragma('busy_timeout = 0');
  for (let attempt = 0; ; attempt++) {
    try {
      db.prepare(sql).run(...params);
      await sleep(150);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt > 10_000) throw error;
      await nextTurn();
    }
  }
}
