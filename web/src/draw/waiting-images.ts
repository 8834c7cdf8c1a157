/**
 * Images added while offline. A document image names a payload the server
 * stores, so an image cannot enter the board before its upload: it waits in
 * IndexedDB (`idb-keyval`), with the upload it needs, is shown where it will
 * go, and is uploaded once the board is connected again, after a reload too.
 * Every upload carries its own `Idempotency-Key`, so a retry after an answer
 * that was lost adds the image once.
 */
import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import { ApiError, api } from '../api.js';
import type { BoardSession } from '../session.js';
import { h, toast } from '../ui.js';

/** What `POST /api/boards/{id}/images` takes from the app. */
export type ImageUpload = {
  x: number;
  y: number;
  width: number;
  height: number;
  dataUrl: string;
  thumbDataUrl?: string;
  author: string;
};

type Waiting = { boardId: string; key: string; body: ImageUpload; at: number };

let database: UseStore | undefined;
const store = () => {
  database ??= createStore('board-waiting-images', 'uploads');
  return database;
};

const listeners = new Set<() => void>();

/** The upload, under the key that makes it safe to send again. */
const post = (boardId: string, body: ImageUpload, key: string) =>
  api('POST', `/api/boards/${boardId}/images`, body, boardId, { 'idempotency-key': key });

/** Uploads an image, or keeps it to upload later when there is no network; false when the server refused it. */
export async function sendImage(boardId: string, body: ImageUpload, key = crypto.randomUUID()): Promise<boolean> {
  try {
    await post(boardId, body, key);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) {
      await set(key, { boardId, key, body, at: Date.now() } satisfies Waiting, store());
      for (const listener of listeners) listener();
      toast('You are offline: the image is kept here and goes on the board once you are back.', 'info', 6000);
      return true;
    }
    toast(error instanceof ApiError ? error.message : 'The image could not be uploaded.', 'error', 7000);
    return false;
  }
}

async function waitingFor(boardId: string): Promise<Waiting[]> {
  const all = (await entries<string, Waiting>(store())).map(([, waiting]) => waiting);
  return all.filter((waiting) => waiting.boardId === boardId).sort((a, b) => a.at - b.at);
}

/** The waiting images of one board: drawn in the world layer where they will go, and sent once it is connected. */
export class WaitingImages {
  readonly element = h('div.waiting-images');
  private sending = false;
  /** How many are shown: the session's every change looks at it, not at IndexedDB. */
  private waiting = 0;

  constructor(private readonly session: BoardSession) {}

  /** Shows the board's waiting images and sends them whenever the board is (again) connected; returns what stops it. */
  follow(): () => void {
    const refresh = () => void this.refresh();
    listeners.add(refresh);
    const stop = this.session.onChange(() => this.waiting > 0 && this.connected() && void this.send());
    void this.refresh().then(() => {
      if (this.waiting > 0 && this.connected()) void this.send();
    });
    return () => {
      listeners.delete(refresh);
      stop();
    };
  }

  private connected(): boolean {
    const { connected, synced } = this.session.state;
    return connected && synced;
  }

  private async refresh(): Promise<void> {
    const waiting = await waitingFor(this.session.boardId);
    this.waiting = waiting.length;
    this.element.replaceChildren(
      ...waiting.map(({ key, body }) =>
        h(
          'div.waiting-image',
          {
            'data-waiting': key,
            style: `left:${body.x}px;top:${body.y}px;width:${body.width}px;height:${body.height}px`,
          },
          h('img', { src: body.dataUrl, alt: '' }),
          h('span', {}, 'Waiting for the network'),
        ),
      ),
    );
  }

  /**
   * Sends them in the order they were added. One the server refuses is told and
   * dropped; the network gone, or the server unable for now (5xx, 429), ends the
   * round, and the next connection tries again.
   */
  private async send(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      for (const { key, body } of await waitingFor(this.session.boardId)) {
        try {
          await post(this.session.boardId, body, key);
        } catch (error) {
          if (error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status >= 500)) break;
          toast(`An image added offline was refused: ${(error as Error).message}`, 'error', 7000);
        }
        await del(key, store());
      }
    } finally {
      this.sending = false;
      await this.refresh();
    }
  }
}
