/**
 * The soak's books: each write expects the watchers of its board that were
 * there when it was sent; each arrival is timed from the write's answer (or
 * kept until the answer comes, when it arrives first); a write still unheard
 * by an open watcher once the delivery bound has passed was missed.
 */
import type { Watcher } from './soak-clients.js';

/** What one sample's window counted. */
export type Tally = { writes: number; errors: number; missed: number; behind: number; json: number[]; yjs: number[] };

type Write = {
  /** The writer's kind and the text it updates, for the report and for merged in-place updates. */
  kind: string;
  text: string;
  sentAt: number;
  answeredAt?: number;
  expected: Set<Watcher>;
  early: Map<Watcher, number>;
};

const emptyTally = (): Tally => ({ writes: 0, errors: 0, missed: 0, behind: 0, json: [], yjs: [] });

const count = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

export class Deliveries {
  tally = emptyTally();
  /** Errors and refusals by code, and misses by path (`rest to yjs`), over the whole run. */
  readonly codes = new Map<string, number>();
  readonly missedBy = new Map<string, number>();
  /** Deliveries a watcher did not hear on their own but through a later write of the same text. */
  superseded = 0;
  private readonly pending = new Map<number, Write>();
  // In-place updates: a watcher that heard a later write of a text has the earlier one too (merged on the way).
  private readonly lastHeard = new WeakMap<Watcher, Map<string, number>>();

  constructor(private readonly bounds: { answerMs: number; deliveryMs: number }) {}

  sent(seq: number, kind: string, text: string, watchers: Watcher[]): void {
    this.pending.set(seq, { kind, text, sentAt: performance.now(), expected: new Set(watchers), early: new Map() });
  }

  answered(seq: number): void {
    const write = this.pending.get(seq);
    if (!write) return; // past the answer bound: already counted as an error
    write.answeredAt = performance.now();
    this.tally.writes++;
    for (const [watcher, arrived] of write.early) this.deliver(write, watcher, arrived);
  }

  failed(seq: number, code: string): void {
    this.pending.delete(seq);
    this.refused(code);
  }

  refused(code: string): void {
    this.tally.errors++;
    count(this.codes, code);
  }

  heard(seq: number, watcher: Watcher, arrived: number): void {
    const write = this.pending.get(seq);
    if (!write?.expected.has(watcher)) return;
    const last = this.lastHeard.get(watcher) ?? this.lastHeard.set(watcher, new Map()).get(watcher)!;
    last.set(write.text, Math.max(seq, last.get(write.text) ?? -1));
    if (write.answeredAt === undefined) write.early.set(watcher, arrived);
    else this.deliver(write, watcher, arrived);
  }

  /** Closes the books on writes past their bounds: unanswered ones are errors, unheard ones missed. */
  sweep(now: number): void {
    for (const [seq, write] of this.pending) {
      if (write.answeredAt === undefined) {
        if (now - write.sentAt > this.bounds.answerMs) this.failed(seq, 'no_answer');
        continue;
      }
      if (now - write.answeredAt <= this.bounds.deliveryMs) continue;
      this.pending.delete(seq);
      for (const watcher of write.expected) {
        if (watcher.closed) continue;
        if ((this.lastHeard.get(watcher)?.get(write.text) ?? -1) > seq) this.superseded++;
        else {
          this.tally.missed++;
          count(this.missedBy, `${write.kind} to ${watcher.kind}`);
        }
      }
    }
  }

  /** The window's tally; a new window starts. */
  takeTally(): Tally {
    const tally = this.tally;
    this.tally = emptyTally();
    return tally;
  }

  private deliver(write: Write, watcher: Watcher, arrived: number): void {
    write.expected.delete(watcher);
    this.tally[watcher.kind].push(arrived - write.answeredAt!);
  }
}
