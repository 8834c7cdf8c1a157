/**
 * What the modules beside Boards (creation, erasure, locks, representations)
 * need: its dependencies, and of Boards itself admission, one read, one
 * transaction and the idempotent entry. Named here rather than imported, so
 * boards.ts and those modules do not import each other.
 */
import type { Document } from '@hocuspocus/server';
import type { BoardRecord } from '../../board/model/record.js';
import type { BoardOrigin, BoardWrite } from '../../board/mutations/board-write.js';
import type { BoardStore } from '../../store/board-store.js';
import type { Access, Caller } from '../access/access.js';
import type { DocumentHost } from '../documents/document-host.js';
import type { BoardEvents } from '../events/board-events.js';
import type { HistoryRecorder } from '../history/history-recorder.js';
import type { PreviewPool } from '../previews/preview-pool.js';
import type { AnswerTx, IdempotentRequest, IdempotentWrites, Unit } from './idempotency.js';

export type BoardsDeps = {
  store: BoardStore;
  host: DocumentHost;
  access: Access;
  events: BoardEvents;
  recorder: HistoryRecorder;
  /** The threads that draw previews (SVG, PNG) off the event loop. */
  previews: PreviewPool;
  now: () => number;
};

export type BoardCore = {
  readonly idempotent: IdempotentWrites;
  keyed<T>(
    boardId: string,
    caller: Caller,
    retry: IdempotentRequest | undefined,
    run: (caller: Caller, unit: Unit<T>) => Promise<T>,
  ): Promise<T>;
  requireLive(boardId: string): Promise<BoardRecord>;
  boardOf(ref: string, access: 'read' | 'write'): Promise<string>;
  admit(boardId: string, caller: Caller, access: 'read' | 'write'): Promise<BoardRecord>;
  read<T>(
    boardId: string,
    caller: Caller,
    view: (doc: Document, record: BoardRecord) => T,
    payloads?: boolean,
  ): Promise<T>;
  transact<T>(
    tx: AnswerTx<T>,
    doc: Document,
    record: BoardRecord,
    origin: BoardOrigin,
    mutate: (w: BoardWrite) => T,
  ): T;
};
