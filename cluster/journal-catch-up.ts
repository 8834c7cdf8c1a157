/**
 * While the relay between instances is down, this instance catches up from
 * the shared storage, which holds every instance's acknowledged writes: each
 * tick it reads what was committed for the boards loaded or watched here and
 * applies it to the loaded document as a relayed change (not journalled again,
 * yet it reaches Yjs clients, JSON-channel rooms, long polls and MCP
 * subscriptions as a relayed change does), and reads their registry rows
 * again, firing the erase, lock and record events the relay would have.
 * Once the relay is back it goes on for a hand-over period (every instance's
 * relay and subscriptions must be back too), then stops.
 */
import * as Y from 'yjs';
import type { BoardRecord } from '../board/model/record.js';
import { RELAYED_ORIGIN } from '../host/events/board-events.js';
import type { CommittedFeed } from '../store/board-store.js';
import { heardRecordEvent, type RecordEvent, type RecordEventTargets } from './record-events.js';

/** How often the storage is read while the relay is down (CATCH_UP_INTERVAL_MS). */
export const CATCH_UP_INTERVAL_MS = 500;
/** How long catching up goes on after the relay is back: other instances' connections may come back later than ours (RELAY_HAND_OVER_MS). */
export const HAND_OVER_MS = 5_000;

/** Whether the relay carries changes between instances now (its health check decides). */
export type RelayState = { up(): boolean };

type CatchUpDeps = RecordEventTargets & {
  feed: CommittedFeed;
  relay: RelayState;
  now?: () => number;
  clocks?: { intervalMs: number; handOverMs: number };
};

/** What changed in a board's record, as the relay's events would have said it. */
type RecordChange = RecordEvent | 'none';

function changeOf(before: BoardRecord, after: BoardRecord): RecordChange {
  if (after.deletedAt && !before.deletedAt) return 'erased';
  if (after.lockVersion !== before.lockVersion) return 'lockChanged';
  const same = (Object.keys(after) as (keyof BoardRecord)[]).every((key) => after[key] === before[key]);
  return same ? 'none' : 'recordChanged';
}

/**
 * What a board's first read in an outage may announce. The registry's copy is
 * no witness: a read here since the change (a client's, the history's) has
 * refreshed it and told no one. So a board erased is erased once more, and a
 * board ever locked has its sockets and listeners checked once, which changes
 * nothing where the lock has not changed; one never locked can have missed none.
 */
function firstReadChange(held: BoardRecord | null, record: BoardRecord): RecordChange {
  if (record.deletedAt) return 'erased';
  if (record.lockVersion > 0) return 'lockChanged';
  return held ? changeOf(held, record) : 'none';
}

export class JournalCatchUp {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private relayWasUp = true;
  /** Catching up goes on until then, relay up or not. */
  private until = 0;
  /** Boards read since catching up started: a board's first read is its whole state, no change. */
  private readonly read = new Set<string>();
  /** Each board's record as last read here, to tell what changed since. */
  private readonly records = new Map<string, BoardRecord>();
  private readonly now: () => number;
  private readonly clocks: { intervalMs: number; handOverMs: number };

  constructor(private readonly deps: CatchUpDeps) {
    this.now = deps.now ?? Date.now;
    this.clocks = deps.clocks ?? { intervalMs: CATCH_UP_INTERVAL_MS, handOverMs: HAND_OVER_MS };
  }

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.clocks.intervalMs);
    this.timer.unref();
  }

  /** Catches up for the hand-over period from now: the relay came back (here, or a silent peer was heard again). */
  private handOver(): void {
    this.until = this.now() + this.clocks.handOverMs;
  }

  /** Whether this instance is catching up from the storage now. */
  private get active(): boolean {
    return !this.deps.relay.up() || this.now() < this.until;
  }

  /** One pass when one is due; resolves once it is done. */
  private tick(): Promise<void> {
    const up = this.deps.relay.up();
    if (up && !this.relayWasUp) this.handOver();
    this.relayWasUp = up;
    if (!this.active) {
      if (this.read.size > 0) this.stop();
      return Promise.resolve();
    }
    this.running ??= this.pass()
      .catch(() => {}) // the storage is away too: the next tick tries again
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async pass(): Promise<void> {
    const { feed, host, events } = this.deps;
    const boards = [...new Set([...host.loadedBoards(), ...events.watchedBoards()])];
    // Records first: a lock set elsewhere stops writers here before anything else.
    const records = await feed.records(boards);
    for (const [boardId, record] of records) this.recordRead(boardId, record);
    const updates = await feed.updates(boards);
    for (const boardId of boards) {
      this.apply(boardId, updates.get(boardId) ?? []);
      this.read.add(boardId);
    }
    for (const boardId of this.read) if (!boards.includes(boardId)) this.forget(boardId);
  }

  /** Applies a board's committed updates to its loaded copy; a board only watched here hears that it changed. */
  private apply(boardId: string, updates: Uint8Array[]): void {
    if (updates.length === 0) return;
    const document = this.deps.host.loaded(boardId);
    if (!document) {
      if (this.read.has(boardId)) this.deps.events.changed(boardId, RELAYED_ORIGIN);
      return;
    }
    // A copy still loading reads the storage itself; a discarded one is never used again.
    if (document.isLoading || document.isDestroyed) return;
    Y.transact(
      document,
      () => {
        for (const update of updates) Y.applyUpdate(document, update);
      },
      RELAYED_ORIGIN,
    );
  }

  /** Fires what the relay would have for a record another instance changed. */
  private recordRead(boardId: string, record: BoardRecord): void {
    const before = this.records.get(boardId);
    this.records.set(boardId, record);
    const change = before ? changeOf(before, record) : firstReadChange(this.deps.registry.peek(boardId), record);
    if (change !== 'none') heardRecordEvent(change, boardId, this.deps);
  }

  /** The relay carries changes again: nothing read is kept (the next outage starts from each board's whole state). */
  private stop(): void {
    this.read.clear();
    this.records.clear();
    this.deps.feed.reset();
  }

  private forget(boardId: string): void {
    this.read.delete(boardId);
    this.records.delete(boardId);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
