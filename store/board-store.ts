/**
 * What the board domain needs from storage, whichever engine holds it: the
 * embedded SQLite (one instance) or PostgreSQL (many instances). Reads are
 * async because a shared registry is a round trip away; writes are staged by
 * a synchronous change (the Y transaction runs synchronously) and are durable
 * when `atomically` resolves.
 */
import * as Y from 'yjs';
import type { BoardRecord } from '../board/model/record.js';
import type { VersionMeta } from '../board/model/versions.js';
import type { BlobPayloads } from '../board/mutations/board-write.js';
import type { BoardMode, LockMode } from '../schema/index.js';

export type Lock = { mode: LockMode; keyHash: string };

/** The board registry: which boards exist, their mode, lock and tombstone. */
export interface Registry {
  get(id: string): Promise<BoardRecord | null>;
  /**
   * The record as this instance last saw it, without a round trip (null when
   * never seen). For checks made in the synchronous step of a change, which cannot wait.
   */
  peek(id: string): BoardRecord | null;
  /** Compare-and-swap of the lock: applies only if nobody changed it since `expectedVersion`. */
  setLock(id: string, lock: Lock | null, expectedVersion: number): Promise<boolean>;
}

/** A view-only link as stored: its token only as the SHA-256 hash (docs/sharing.md). */
export type StoredViewLink = { id: string; boardId: string; label: string | null; createdAt: string };

/**
 * A board's view-only links. A revoked link is deleted, so its token names
 * nothing; erasing a board deletes its links with its document (StoreTx.eraseDocument).
 */
export interface ViewLinkStore {
  /** Adds a link unless the board already holds `max` of them: false then, and nothing is stored. */
  add(link: StoredViewLink, tokenHash: string, max: number): Promise<boolean>;
  /** The board's links, oldest first. */
  list(boardId: string): Promise<StoredViewLink[]>;
  /** The link a token's hash names, or null. */
  find(tokenHash: string): Promise<StoredViewLink | null>;
  /** Deletes one of the board's links; false when it has none by that id. */
  revoke(boardId: string, id: string): Promise<boolean>;
}

/** The first answer of a write sent with an idempotency key, as host/idempotency.ts seals it. */
export type StoredAnswer = { id: string; fingerprint: string; answer: Uint8Array };

/** Answers of idempotent writes: each is stored with its write (StoreTx.rememberAnswer) and kept until swept. */
export interface AnswerStore {
  get(id: string): Promise<StoredAnswer | null>;
  /** Deletes the answers stored before `beforeMs` (epoch ms); resolves with how many. */
  sweep(beforeMs: number): Promise<number>;
}

/** Registry and document writes staged by a change; applied in the same unit as its journal entries. */
export interface StoreTx {
  /** Stores a write's answer with it; a second answer under the same id refuses the change (idempotency_key_in_use). */
  rememberAnswer(answer: StoredAnswer): void;
  createBoard(id: string, mode: BoardMode, lock?: Lock): BoardRecord;
  /** Gives an erased board's id to a new, empty board. */
  reviveBoard(id: string, mode: BoardMode): BoardRecord;
  setMode(id: string, mode: BoardMode): void;
  /** Registry.setLock inside a change: a lock that moved since `expectedVersion` refuses the change (lock_conflict). */
  swapLock(id: string, lock: Lock | null, expectedVersion: number): void;
  tombstone(id: string): void;
  /** Forgets a board's stored document, its image payloads, its history and its view links. */
  eraseDocument(id: string): void;
  /** Makes a live document's whole state the stored state, with an empty journal. */
  replaceDocument(id: string, doc: Y.Doc): void;
}

/** Durable document storage: a stored state per document plus a journal of the updates since. */
export interface DocumentJournal {
  /** The stored state with the journal replayed onto it, as one update; null when nothing is stored. */
  load(name: string): Promise<Uint8Array | null>;
  /**
   * Journals one update, called from the document's update event before any
   * acknowledgement. Throws at once if it cannot (SQLite), or returns a promise
   * that settles when it is durable (PostgreSQL group commit).
   */
  append(name: string, update: Uint8Array): Promise<void> | void;
  /**
   * The commit still on its way for `name`, if any (never with the embedded
   * SQLite, whose appends commit at once): it resolves once every update
   * appended so far for `name` is durable, and rejects if one could not be
   * stored. What shows a change to anyone waits for it, so that a change the
   * storage refuses is never seen.
   */
  pending(name: string): Promise<void> | undefined;
  /** Folds the journal into the stored state; false when nothing was journalled since. */
  compact(name: string, doc: Y.Doc): Promise<boolean>;
  erase(name: string): Promise<void>;
  /** Journal entries not yet compacted (tests and benchmarks). */
  journalLength(name: string): Promise<number>;
}

/** Image payloads, outside the Y.Doc: the document holds a content hash, this store the data URL. */
export interface BlobStore extends BlobPayloads {
  /** A payload this instance holds (after `load` for a shared store), else null. */
  get(boardId: string, hash: string): string | null;
  /** Makes the given payloads available to `get` (a no-op for the embedded store). */
  load(boardId: string, hashes: Iterable<string>): Promise<void>;
  /** Deletes the board's payloads that no image references any more. */
  prune(boardId: string, referenced: Set<string>): Promise<number>;
}

/**
 * A board's versions (docs/history.md). Each version holds the Y update from
 * the previous stored version's state to its own (the oldest one holds a whole
 * state), so a burst costs what it changed, not a copy of the board. The state
 * at a version is the oldest state with every later update up to it applied.
 */
export interface VersionStore {
  /**
   * Appends the board's next version, unless its newest version already holds
   * `meta.etag` (another instance recorded the same state): then null. Numbers
   * are strictly increasing per board and never reused, even after thinning.
   * Durable when it resolves; concurrent calls for one board are serialised.
   */
  record(
    boardId: string,
    meta: Omit<VersionMeta, 'version' | 'bytes'>,
    update: Uint8Array,
    stateVector: Uint8Array,
    blobs: string[],
  ): Promise<VersionMeta | null>;
  /** The newest version's meta and state vector (what the next update starts from), or null. */
  newest(boardId: string): Promise<{ meta: VersionMeta; stateVector: Uint8Array } | null>;
  /** Versions newest first, below `before` when given. */
  list(boardId: string, limit: number, before?: number): Promise<VersionMeta[]>;
  get(boardId: string, version: number): Promise<VersionMeta | null>;
  /** How many versions the board has stored. */
  count(boardId: string): Promise<number>;
  /** The newest version holding this ETag, or null. */
  findEtag(boardId: string, etag: string): Promise<VersionMeta | null>;
  /** The board's whole state at a version, as one update, or null when it is not stored. */
  stateAt(boardId: string, version: number): Promise<Uint8Array | null>;
  /** Every version's meta, oldest first, for thinning (versions, time and bytes only matter). */
  all(boardId: string): Promise<VersionMeta[]>;
  /** Drops versions: each one's update is folded into the next version kept, so later states stay whole. */
  drop(boardId: string, versions: number[]): Promise<void>;
  /** Image payload hashes any stored version references: pruning spares them. */
  referencedBlobs(boardId: string): Promise<Set<string>>;
  /** Forgets the board's whole history (erase). */
  erase(boardId: string): Promise<void>;
}

/**
 * What every instance committed to a shared storage, read back per board: how
 * an instance catches up with the others while the relay between them is down
 * (cluster/journal-catch-up.ts). Only a store several instances share has one.
 */
export interface CommittedFeed {
  /**
   * Per board asked for, the stored updates not yet returned for it: all of
   * them the first time (its stored state and journal), later those committed
   * since. A few may come twice (applying a Y update again changes nothing).
   * Boards not asked for are forgotten: asked again, they get everything.
   */
  updates(boardIds: string[]): Promise<Map<string, Uint8Array[]>>;
  /** Forgets every board: the next read of each returns everything. */
  reset(): void;
  /** The boards' registry records as stored now; a board with no row is absent. */
  records(boardIds: string[]): Promise<Map<string, BoardRecord>>;
}

export interface BoardStore {
  readonly registry: Registry;
  readonly documents: DocumentJournal;
  readonly blobs: BlobStore;
  readonly history: VersionStore;
  readonly answers: AnswerStore;
  readonly viewLinks: ViewLinkStore;
  /** Present on a store several instances share. */
  readonly committed?: CommittedFeed;
  /**
   * Runs `change` (synchronous: Y transactions and staged registry writes) and
   * resolves with its result once all of it is durable. A change that throws
   * stores no registry write. Journal entries and payloads it made before
   * throwing are rolled back by SQLite; PostgreSQL keeps them (the live
   * document already holds those updates, and a payload nothing references is
   * pruned after its grace period). The domain applies its Y transaction last,
   * so a mutation that throws has made no update (test/store-contract.test.ts).
   */
  atomically<T>(boardId: string, change: (tx: StoreTx) => T): Promise<T>;
  /** Resolves once the storage answers a trivial query (readiness); rejects when it cannot. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Replays stored updates into one. Applied in one transaction and re-encoded
 * rather than Y.mergeUpdates, which is far slower on long journals and keeps
 * deleted content.
 */
export function replayUpdates(updates: readonly [...Uint8Array[], Uint8Array]): Uint8Array;
export function replayUpdates(updates: readonly Uint8Array[]): Uint8Array | null;
export function replayUpdates(updates: readonly Uint8Array[]): Uint8Array | null {
  if (updates.length === 0) return null;
  if (updates.length === 1) return updates[0];
  const doc = new Y.Doc();
  doc.transact(() => {
    for (const update of updates) Y.applyUpdate(doc, update);
  });
  const merged = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return merged;
}
