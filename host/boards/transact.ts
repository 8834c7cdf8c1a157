/**
 * One write as one Y transaction: the mutation runs against staged maps (and
 * staged image payloads), then everything it changed is committed together,
 * so a mutation that throws at any point leaves the document and the store as
 * they were. Staging and committing are apart so that a write can look at
 * what it staged (the diagrams it met) before committing any of it.
 */
import { randomUUID } from 'node:crypto';
import type { Document } from '@hocuspocus/server';
import { commitMaps, stagedMaps, type TextNode } from '../../board/model/document-model.js';
import type { BoardRecord } from '../../board/model/record.js';
import type { BlobPayloads, BoardOrigin, BoardWrite } from '../../board/mutations/board-write.js';
import { blobHash } from '../../store/blob-hash.js';
import type { BlobStore } from '../../store/board-store.js';
import type { AnswerTx } from './idempotency.js';

/** A mutation run against staged maps: its result, and what it would change. */
export type Staged<T> = { result: T; write: BoardWrite; payloads: StagedPayloads };

/** Image payloads a write puts: stored only when it commits. */
class StagedPayloads implements BlobPayloads {
  private readonly puts = new Map<string, string>();

  constructor(private readonly blobs: BlobStore) {}

  put(_boardId: string, dataUrl: string): string {
    const hash = blobHash(dataUrl);
    this.puts.set(hash, dataUrl);
    return hash;
  }

  get(boardId: string, hash: string): string | null {
    return this.puts.get(hash) ?? this.blobs.get(boardId, hash);
  }

  store(boardId: string): void {
    for (const dataUrl of this.puts.values()) this.blobs.put(boardId, dataUrl);
  }
}

/** Runs a mutation against the document's staged maps; nothing reaches the document or the store. */
export function stage<T>(
  doc: Document,
  record: BoardRecord,
  origin: BoardOrigin,
  mutate: (w: BoardWrite) => T,
  context: { blobs: BlobStore; now: number; textSize: (node: TextNode) => { width: number; height: number } },
): Staged<T> {
  const payloads = new StagedPayloads(context.blobs);
  const write: BoardWrite = {
    boardId: record.id,
    mode: record.mode,
    maps: stagedMaps(doc),
    blobs: payloads,
    author: origin.author,
    now: new Date(context.now).toISOString(),
    newId: randomUUID,
    textSize: context.textSize,
    counts: {},
    authors: new Set(),
  };
  return { result: mutate(write), write, payloads };
}

/** Commits a staged write in the change's store unit: registry mode, payloads and answer first, the Y transaction last. */
export function commit<T>(
  tx: AnswerTx<T>,
  doc: Document,
  record: BoardRecord,
  origin: BoardOrigin,
  staged: Staged<T>,
): T {
  const { write, result } = staged;
  if (write.mode !== record.mode) {
    // The registry is the authority; the document mirrors it so that Yjs clients see the switch.
    write.maps.meta.set('mode', write.mode);
    tx.setMode(record.id, write.mode);
  }
  staged.payloads.store(record.id);
  tx.answer(result); // before the Y transaction: should the answer be refused, the document is untouched
  const authors = write.authors?.size ? { authors: [...write.authors] } : {};
  doc.transact(() => commitMaps(write.maps), { ...origin, ...authors });
  return result;
}
