/**
 * Safe retries, as the IETF httpapi Idempotency-Key draft has them, for every
 * surface: a write sent with a key stores its answer in the same store unit
 * as its change, so the answer exists exactly when the change does. The same
 * key with the same request then answers that first answer again; with
 * another request 422 idempotency_key_reused; while the first still runs 409
 * idempotency_key_in_use. A refused write stores nothing: its retry runs afresh.
 *
 * Keys are scoped (a board, or board creation) and stored only as a hash; the
 * answer is sealed with a key derived from the client's key, since it may hold
 * a board's access key, which is never stored readable.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { errors } from '../../board/model/errors.js';
import type { BoardStore, StoreTx } from '../../store/board-store.js';

/** What a surface hands over with a write sent with a key. */
export type IdempotentRequest = {
  key: string;
  /** What makes two requests the same one: the surface, its method or name, route and arguments. */
  request: unknown;
  /** Told when the answer is a replay of the first one (REST's Idempotent-Replayed header). */
  replayed?: () => void;
};

/**
 * A change's view of its store unit: `answer` stages the write's answer in the
 * unit when it was sent with a key (else does nothing). Called in the
 * synchronous step before the Y transaction: should the answer be refused,
 * the document is untouched.
 */
export type AnswerTx<T> = StoreTx & { answer(result: T): void };

/** A store unit (BoardStore.atomically) for a write whose answer is `T`: it stores that answer with the change. */
export type Unit<T> = <R>(boardId: string, change: (tx: AnswerTx<T>) => R) => Promise<R>;

/** Answers are kept at least this long (the draft leaves it to the server; a day covers any client's retries). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How often each instance deletes the answers older than that. */
export const IDEMPOTENCY_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** The scope of board creations, beside each board's own (board ids are UUIDs, so they never meet). */
export const CREATE_SCOPE = 'create';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with object keys sorted, so that the same arguments in another order are the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const sealingKey = (key: string, id: string) => Buffer.from(hkdfSync('sha256', key, id, 'idempotent answer', 32));

/** The answer as JSON, AES-256-GCM sealed with a key only the client's idempotency key gives. */
function seal(result: unknown, key: string, id: string): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(key, id), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(result) ?? 'null', 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function open(sealed: Uint8Array, key: string, id: string): unknown {
  const bytes = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(key, id), bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return JSON.parse(
    Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(),
  );
}

const NOTHING = () => {};

export class IdempotentWrites {
  /** Keys whose first request runs on this instance now. */
  private readonly running = new Set<string>();

  constructor(
    private readonly store: BoardStore,
    private readonly now: () => number,
  ) {}

  /**
   * Runs a write once per key in `scope`: `run` gets the store unit to commit
   * in, which stores its answer with its change; a request without a key just runs.
   */
  async once<T>(scope: string, request: IdempotentRequest | undefined, run: (unit: Unit<T>) => Promise<T>): Promise<T> {
    if (!request) return run(this.plain as Unit<T>);
    const id = sha256(`${scope}\n${request.key}`);
    const fingerprint = sha256(canonicalJson(request.request));
    if (this.running.has(id)) throw errors.idempotencyKeyInUse();
    this.running.add(id);
    try {
      const stored = await this.store.answers.get(id);
      if (stored) {
        if (stored.fingerprint !== fingerprint) throw errors.idempotencyKeyReused();
        request.replayed?.();
        return open(stored.answer, request.key, id) as T;
      }
      const answer = (result: T) => ({ id, fingerprint, answer: seal(result, request.key, id) });
      return await run((boardId, change) =>
        this.store.atomically(boardId, (tx) =>
          change({ ...tx, answer: (result) => tx.rememberAnswer(answer(result)) }),
        ),
      );
    } finally {
      this.running.delete(id);
    }
  }

  /** The unit of a write sent without a key: the store's own, with nothing to answer. */
  readonly plain: Unit<unknown> = (boardId, change) =>
    this.store.atomically(boardId, (tx) => change({ ...tx, answer: NOTHING }));

  /** Forgets the answers past their retention. */
  sweep(): Promise<number> {
    return this.store.answers.sweep(this.now() - IDEMPOTENCY_RETENTION_MS);
  }
}
