/**
 * WAL checkpoints on a thread of their own: a checkpoint fsyncs, and on the
 * event loop it would stall every write waiting meanwhile. A PASSIVE checkpoint
 * takes no writer lock, so a second connection can run it beside the server's
 * commits; `wal_autocheckpoint` stays the backstop should this thread stop.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The thread's whole program, as CommonJS text: a file beside this one would
 * have to exist both as TypeScript (tsx) and as the built JavaScript (dist).
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
const tick = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or failing storage: the writes that need it report that themselves, and the next tick tries again
  }
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class Checkpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(file: string, intervalMs: number) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(PROGRAM, { eval: true, workerData: { file, driver, intervalMs }, execArgv: [] });
    this.worker.unref();
    // A thread that cannot open the file leaves checkpoints to the backstop; it must not take the server down.
    this.worker.on('error', () => {});
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Stops the timer and closes the thread's connection, before the server's own closes the database. */
  async close(): Promise<void> {
    this.worker.postMessage('close');
    await this.exited;
  }
}
