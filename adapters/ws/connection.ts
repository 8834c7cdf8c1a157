/**
 * One connection of the JSON frame channel (`/ws/{boardId}`, protocol in
 * docs/realtime.md): `hello` and `snapshot` on connect, an `op` frame for every
 * accepted change from any surface, mutation frames applied through the domain
 * like REST, `ack` and `error` frames, batches continued over several frames.
 */
import secureJson from 'secure-json-parse';
import type { WebSocket } from 'ws';
import { CLOSE, errors, fromZodIssues, keyStateOf } from '../../board/model/errors.js';
import type { BatchOpCall } from '../../board/mutations/batch.js';
import type { BoardWrite } from '../../board/mutations/board-write.js';
import {
  type ClientFrame,
  ClientFrame as ClientFrameSchema,
  isClientFrameType,
  type MutationFrame,
} from '../../board/operations/frames.js';
import { FRAME_OPERATIONS, parseBatch, runBatch } from '../../board/operations/operations.js';
import type { Access, Caller } from '../../host/access/access.js';
import type { SocketVerdict } from '../../host/access/socket-access.js';
import type { Boards } from '../../host/boards/boards.js';
import type { IdempotentRequest } from '../../host/boards/idempotency.js';
import type { BoardRooms, Membership, RoomMember } from '../../host/events/board-room.js';
import type { BoardOp } from '../../host/events/op-feed.js';
import type { BoardMode, LockMode } from '../../schema/index.js';
import {
  type BatchFrame,
  ClientFrameEnvelope,
  FrameRef,
  MAX_BATCH_OPS,
  MAX_WS_BUFFERED_BYTES,
  MAX_WS_FRAME_BYTES,
  type ServerFrame,
  WS_CONTINUATION_IDLE_MS,
  WS_CONTINUATION_MAX_FRAMES,
} from '../../schema/index.js';
import { knownError } from '../../store/storage-errors.js';
import { idempotencyKey } from '../kit/idempotency.js';

/**
 * `lockChanges`: the lock changes counted before the admission read the
 * record (SocketAccess.mark). `boardId` is the board's own id (its room);
 * `shownId` names it as the client did, a view token staying the token.
 */
export type Admission = {
  boardId: string;
  shownId: string;
  mode: BoardMode;
  lockMode: LockMode | null;
  readOnly: boolean;
  caller: Caller & { author: string };
  lockChanges: number;
};

type Ref = string | number | undefined;
type PendingBatch = { ref: Ref; key?: string; ops: BatchOpCall[]; frames: number; timer: NodeJS.Timeout };

type Deps = { boards: Boards; access: Access; rooms: BoardRooms };

/** A write-locked board's refusal on this channel, whose key travels only when the socket connects. */
const LOCKED_MESSAGES: Record<string, string> = {
  missing: 'this board is locked; reconnect with its access key as the svc-key.<key> subprotocol',
  wrong: 'the access key this connection sent is wrong for this board; reconnect with the key given when it was locked',
};

/** A single mutation frame's type with its parsed arguments (without type and ref). */
type MutationOp = { type: string; args: Record<string, unknown> };

/** Runs one mutation frame inside a write: the `mutate` of the operation table's row that declares the frame. */
function applyOp(w: BoardWrite, op: MutationOp): unknown {
  return FRAME_OPERATIONS[op.type].mutate(w, op.args);
}

/**
 * Frames are JSON by the rule REST and MCP bodies follow (Fastify's parser):
 * an own `__proto__` key, or a `constructor` holding `prototype`, makes the
 * text invalid JSON, so such a frame is refused as the same body would be.
 */
function parseJson(text: string): unknown {
  return secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' });
}

/** The `ref` of a frame refused before its envelope was read, when the text is JSON at all (refused for its keys). */
function refOf(data: Buffer): Ref {
  try {
    const ref = FrameRef.safeParse((JSON.parse(data.toString('utf8')) as { ref?: unknown } | null)?.ref);
    return ref.success ? ref.data : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a frame whose type is known with the client frame union (only the member its type names is checked). */
function parseFrame(body: Record<string, unknown>): ClientFrame {
  const result = ClientFrameSchema.safeParse(body, { reportInput: true });
  if (!result.success) throw fromZodIssues(result.error.issues);
  return result.data as ClientFrame;
}

/** A single mutation frame as its op: the arguments without type, ref and key. */
function opOf(frame: MutationFrame): MutationOp {
  const { type, ref: _ref, idempotencyKey: _key, ...args } = frame;
  return { type, args };
}

/** What the host needs of a frame sent with a key: the key, and what makes a resent frame the same write. */
function retryOf(key: string | undefined, type: string, args: unknown): IdempotentRequest | undefined {
  return key === undefined ? undefined : { key, request: ['ws', type, args] };
}

/** A socket of the channel: a member of its board's room, which hands it the board's ops, erasure and lock changes. */
export class JsonChannelConnection implements RoomMember {
  private queue = Promise.resolve();
  private pending: PendingBatch | null = null;
  private alive = true;
  private readonly heartbeat: NodeJS.Timeout;
  /** A snapshot on its way (the first, or a fresh one): ops that follow wait for it, so that order is kept. */
  private resync: Promise<void> | null = null;
  private readonly membership: Membership;

  constructor(
    private readonly socket: WebSocket,
    private readonly admission: Admission,
    private readonly deps: Deps,
  ) {
    this.membership = deps.rooms.join(admission.boardId, this, admission.lockChanges);
    socket.on('message', (data: Buffer, isBinary: boolean) => this.receive(data, isBinary));
    socket.on('pong', () => (this.alive = true));
    socket.on('close', () => this.dispose());
    // A peer that stops answering pings is gone: do not keep its place in the room.
    this.heartbeat = setInterval(() => {
      if (!this.alive) return socket.terminate();
      this.alive = false;
      socket.ping();
    }, 30_000).unref();
  }

  get holder(): Caller {
    return this.admission.caller;
  }

  /**
   * A change touching more than MAX_BATCH_OPS items (a restore, say) goes out
   * as one fresh `snapshot` frame instead of a flood of `op` frames.
   */
  ops(ops: BoardOp[], etag: string): void {
    if (ops.length > MAX_BATCH_OPS) return this.afterResync(() => this.sendSnapshot());
    const deliver = () => {
      for (const op of ops) this.send({ type: 'op', ...op, etag });
    };
    if (this.resync) this.afterResync(deliver);
    else deliver();
  }

  erased(): void {
    this.send({ type: 'board_erased', boardId: this.admission.shownId });
    this.socket.close(CLOSE.boardErased.code, CLOSE.boardErased.reason);
  }

  /** A lock change updates what this connection may do; one that refuses it now closes it. */
  accessChanged(verdict: SocketVerdict): void {
    if (verdict.admitted) {
      this.admission.readOnly = verdict.readOnly;
      return;
    }
    this.sendError(verdict.error, undefined);
    const close = this.admission.caller.viewLink === undefined ? CLOSE.boardLocked : CLOSE.viewLinkRevoked;
    this.socket.close(close.code, close.reason);
  }

  reloaded(): void {
    this.afterResync(() => this.sendSnapshot());
  }

  /** Runs `deliver` once the snapshot on its way, and whatever waits for it already, has gone out. */
  private afterResync(deliver: () => void | Promise<void>): void {
    const turn: Promise<void> = (this.resync ?? Promise.resolve()).then(deliver).finally(() => {
      if (this.resync === turn) this.resync = null;
    });
    this.resync = turn;
  }

  /** Sends `hello` and then `snapshot`. */
  async start(): Promise<void> {
    const { shownId, mode, lockMode, readOnly, caller } = this.admission;
    this.send({ type: 'hello', boardId: shownId, mode, lockMode, readOnly, author: caller.author });
    // Ops of changes made while the snapshot is read come after it (they may be in it: an op is applied idempotently).
    this.afterResync(() => this.sendSnapshot());
    await this.resync;
  }

  /** Sends the board's whole state as a `snapshot` frame; a board that cannot be read any more closes the socket. */
  private async sendSnapshot(): Promise<void> {
    try {
      const { board, etag } = await this.deps.boards.fullSnapshot(this.admission.shownId, this.admission.caller);
      this.send({ type: 'snapshot', board, etag });
    } catch (error) {
      this.sendError(error, undefined);
      this.socket.close(CLOSE.boardErased.code, CLOSE.boardErased.reason);
    }
  }

  /** Sends a frame, unless the peer cannot keep up: then it is dropped, so it never delays anyone else. */
  send(frame: ServerFrame): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > MAX_WS_BUFFERED_BYTES) {
      this.socket.close(CLOSE.slowConsumer.code, CLOSE.slowConsumer.reason);
      return;
    }
    this.socket.send(JSON.stringify(frame));
  }

  private sendError(error: unknown, ref: Ref, extra: Record<string, unknown> = {}): void {
    const boardError = knownError(error) ?? errors.internal();
    const { error: _error, code: _code, ...details } = boardError.toBody();
    this.send({
      ...details,
      ...extra,
      type: 'error',
      code: boardError.code,
      message: (boardError.code === 'board_locked' && LOCKED_MESSAGES[String(details.keyState)]) || boardError.message,
      ...(ref !== undefined && { ref }),
    });
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (data.byteLength > MAX_WS_FRAME_BYTES) {
      this.socket.close(CLOSE.frameTooLarge.code, CLOSE.frameTooLarge.reason);
      return;
    }
    // Frames are handled one at a time, in the order they came.
    this.queue = this.queue.then(() => this.handle(data, isBinary)).catch(() => {});
  }

  private async handle(data: Buffer, isBinary: boolean): Promise<void> {
    let body: Record<string, unknown>;
    try {
      if (isBinary) throw errors.invalidJson('frames are JSON text');
      const parsed = parseJson(data.toString('utf8'));
      const envelope = ClientFrameEnvelope.safeParse(parsed, { reportInput: true });
      if (!envelope.success) throw fromZodIssues(envelope.error.issues);
      body = envelope.data;
    } catch (error) {
      this.sendError(error instanceof SyntaxError ? errors.invalidJson(error.message) : error, refOf(data));
      return;
    }
    const ref = body.ref as Ref;
    try {
      const type = body.type as string;
      if (!isClientFrameType(type)) throw errors.unknownFrame(type);
      // A mutation frame meets the lock and the frame budget before its arguments are read; a batch after its envelope is.
      if (type !== 'batch') await this.admit();
      const key = idempotencyKey(body.idempotencyKey);
      const frame = parseFrame(body);
      switch (frame.type) {
        case 'batch':
          return await this.batch(frame as BatchFrame, key);
        default: {
          // Every other member is a mutation frame, run by the row that declares it.
          const op = opOf(frame as MutationFrame);
          const result = await this.deps.boards.write(
            this.admission.boardId,
            this.admission.caller,
            (w) => applyOp(w, op),
            retryOf(key, op.type, op.args),
          );
          if (ref !== undefined) this.send({ type: 'ack', ref, result });
        }
      }
    } catch (error) {
      this.sendError(error, ref);
    }
  }

  /** Read-only connections and the board's frame budget (a continued batch counts once). */
  private async admit(): Promise<void> {
    if (this.admission.caller.viewLink !== undefined) throw errors.readOnlyLink();
    if (this.admission.readOnly)
      throw errors.boardLocked(this.admission.lockMode ?? 'write', keyStateOf(this.admission.caller.key));
    await this.deps.access.admitFrame(this.admission.boardId);
  }

  private async batch(frame: BatchFrame, key: string | undefined): Promise<void> {
    const pending = this.pending;
    if (pending && pending.ref !== frame.ref) throw errors.batchInProgress();
    if (!pending) await this.admit();
    let ops: BatchOpCall[];
    try {
      ops = parseBatch(frame.ops, pending?.ops.length ?? 0);
    } catch (error) {
      this.dropPending();
      throw error;
    }
    const batch: PendingBatch = pending ?? { ref: frame.ref, key, ops: [], frames: 0, timer: setTimeout(() => {}, 0) };
    clearTimeout(batch.timer);
    batch.ops.push(...ops);
    batch.frames += 1;
    if (batch.ops.length > MAX_BATCH_OPS || batch.frames > WS_CONTINUATION_MAX_FRAMES) {
      this.dropPending();
      throw errors.batchTooLarge();
    }
    if (frame.more) {
      batch.timer = setTimeout(() => {
        this.pending = null;
        this.sendError(errors.batchTimeout(), batch.ref);
      }, WS_CONTINUATION_IDLE_MS);
      this.pending = batch;
      return;
    }
    this.pending = null;
    const results = await this.deps.boards.write(
      this.admission.boardId,
      this.admission.caller,
      (w) => runBatch(w, batch.ops),
      retryOf(batch.key, 'batch', batch.ops),
    );
    if (batch.ref !== undefined) this.send({ type: 'ack', ref: batch.ref, result: results });
  }

  private dropPending(): void {
    if (this.pending) clearTimeout(this.pending.timer);
    this.pending = null;
  }

  private dispose(): void {
    this.dropPending();
    clearInterval(this.heartbeat);
    this.membership.leave();
  }
}
