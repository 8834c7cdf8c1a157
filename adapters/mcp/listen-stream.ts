/**
 * One open 2026-07-28 `subscriptions/listen` stream: who opened it (the key
 * of its `X-Board-Key` header, its client address), the board URIs it
 * listens to, and the end a lock change can give it. The SDK's listen router
 * writes the stream; its answer passes through `guard`, which can close it
 * with a JSON-RPC error for the listen request (the revision lets a server
 * end a subscription by closing its stream; the error says why first).
 */
import type { KeyHolder } from '../../host/access/access.js';
import type { RpcError } from './errors.js';
import { parseUri } from './resources.js';

const encoder = new TextEncoder();

export class ListenStream {
  private controller: TransformStreamDefaultController<Uint8Array> | undefined;
  /** The SDK's first frame (the acknowledgment) went out: an end may follow it. */
  private acknowledged = false;
  private ending: RpcError | undefined;
  private ended = false;
  private released = false;

  constructor(
    /** The listen request's JSON-RPC id, which is the subscription's id. */
    readonly id: string | number,
    readonly holder: KeyHolder,
    /** The canonical URIs it listens to (those its read check let through). */
    readonly uris: readonly string[],
    private readonly onRelease: () => void,
  ) {}

  /** The boards its URIs name. */
  boards(): Set<string> {
    return new Set(this.uris.map((uri) => parseUri(uri).boardId));
  }

  /** Its URIs of one board. */
  urisOf(boardId: string): string[] {
    return this.uris.filter((uri) => parseUri(uri).boardId === boardId);
  }

  /** The SDK's answer to the listen, through a stream this listen can end; any other answer as it is. */
  guard(answer: Response): Response {
    if (answer.body === null || !answer.headers.get('content-type')?.startsWith('text/event-stream')) return answer;
    const guarded = new TransformStream<Uint8Array, Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      // The SDK enqueues whole frames, the acknowledgment first: an end falls between two frames.
      transform: (frame, controller) => {
        if (this.ended) return;
        controller.enqueue(frame);
        this.acknowledged = true;
        if (this.ending) this.finish();
      },
    });
    return new Response(answer.body.pipeThrough(guarded), answer);
  }

  /** Ends the stream with `error` as the listen request's answer; nothing is written after it. */
  end(error: RpcError): void {
    this.ending ??= error;
    if (this.acknowledged) this.finish();
  }

  private finish(): void {
    if (this.ended || !this.controller || !this.ending) return;
    this.ended = true;
    const { code, message, data } = this.ending;
    const answer = { jsonrpc: '2.0', id: this.id, error: { code, message, ...(data !== undefined && { data }) } };
    this.controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(answer)}\n\n`));
    // Closes what the client reads, and cancels the SDK's stream, which then leaves the event bus.
    this.controller.terminate();
  }

  /** The stream closed: it stops listening (called once the response is gone). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease();
  }
}
