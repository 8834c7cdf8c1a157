/**
 * A board open in the browser: its Y.Doc synced through /collab (Hocuspocus),
 * kept in IndexedDB so editing works offline and merges on reconnect, the
 * people present (awareness), undo of this person's own edits, and writes made
 * with the same domain mutations the server uses.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket, WebSocketStatus } from '@hocuspocus/provider';
import { IndexeddbPersistence, storeState } from 'y-indexeddb';
import * as Y from 'yjs';
import { MAP_NAMES } from '../../board/model/document-model.js';
import { BoardError, CLOSE } from '../../board/model/errors.js';
import type { BoardWrite } from '../../board/mutations/board-write.js';
import { localWrite } from '../../board/mutations/local-write.js';
import { type BoardMode, CollabStateless } from '../../schema/index.js';
import { authorTag, deviceId, keys } from './api.js';
import { guestName } from './names.js';
import { localDbName } from './offline.js';
import { toast } from './ui.js';
import { UnsentEdits } from './unsent.js';

/** The origin of this person's own transactions: what undo tracks. */
export const LOCAL_ORIGIN = { source: 'browser' };

/** `pending` counts the provider's unacknowledged messages; `edits` the items changed here and not yet acknowledged (unsent.ts). */
export type SyncState = { online: boolean; connected: boolean; synced: boolean; pending: number; edits: number };

/** Colours for people's cursors, picked from the device id. */
const PEOPLE_COLORS = ['#e53935', '#8e24aa', '#3949ab', '#039be5', '#00897b', '#7cb342', '#fb8c00', '#6d4c41'];

export type Person = {
  id: string;
  name: string;
  color: string;
  cursor?: { x: number; y: number };
  /** The text they are typing in, if any (shown to the others as an "editing" mark). */
  editing?: string;
};

export class BoardSession {
  readonly doc = new Y.Doc();
  readonly provider: HocuspocusProvider;
  private readonly socket: HocuspocusProviderWebsocket;
  private readonly persistence: IndexeddbPersistence;
  readonly undo: Y.UndoManager;
  readOnly: boolean;
  state: SyncState;
  private readonly unsent: UnsentEdits;
  private readonly listeners = new Set<() => void>();
  readonly me: Person;
  /** The size a text or link is drawn at (BoardWrite.textSize): a draw board tells it; unknown elsewhere. */
  textSize: BoardWrite['textSize'] = () => undefined;

  constructor(
    readonly boardId: string,
    private readonly options: {
      readOnly: boolean;
      /** False for an embed: a viewer the board's people do not see (no name, no cursor). */
      present?: boolean;
      onNeedKey: (reason: string) => void;
      /** The view-only link this board was opened with was revoked (close 4404): the provider is not to reconnect. */
      onRevoked?: () => void;
    },
  ) {
    this.readOnly = options.readOnly;
    this.unsent = new UnsentEdits(boardId);
    this.state = { online: navigator.onLine, connected: false, synced: false, pending: 0, edits: this.unsent.count };
    this.doc.on('afterTransaction', this.countEdit);
    const id = deviceId();
    this.me = { id, name: guestName(id), color: PEOPLE_COLORS[parseInt(id.slice(0, 2), 16) % PEOPLE_COLORS.length] };
    this.persistence = new IndexeddbPersistence(localDbName(boardId), this.doc);
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    // `board` is for a load balancer that routes by board (docs/deploy.md); the server reads the board from the protocol.
    this.socket = new HocuspocusProviderWebsocket({
      url: `${scheme}://${location.host}/collab?client=${id}&board=${boardId}`,
    });
    this.provider = new HocuspocusProvider({
      websocketProvider: this.socket,
      name: boardId,
      document: this.doc,
      // Read at every (re)connection, so a key given by a lock (or entered) since is the one sent.
      token: () => keys.get(boardId) ?? '',
      onAuthenticated: ({ scope }) => {
        this.readOnly = this.options.readOnly || scope === 'readonly';
        this.update({});
      },
      onAuthenticationFailed: ({ reason }) => this.options.onNeedKey(reason),
      onStatus: ({ status }) => this.update({ connected: status === 'connected' }),
      onSynced: ({ state }) => this.update({ synced: state }),
      onUnsyncedChanges: ({ number }) => this.update({ pending: number }),
      onStateless: ({ payload }) => this.reportRepairs(payload),
    });
    this.socket.on('close', this.onClose);
    this.quietFirstSync();
    this.provider.attach();
    this.provider.awareness?.setLocalState(this.present ? { user: this.me } : null);
    const maps = MAP_NAMES.map((name) => this.doc.getMap(name));
    // Each write is its own step, however quickly the next follows; a gesture that writes while it lasts makes one (`LiveWrite`).
    this.undo = new Y.UndoManager(maps, { trackedOrigins: new Set([LOCAL_ORIGIN]), captureTimeout: 0 });
    addEventListener('online', this.onNetwork);
    addEventListener('offline', this.onNetwork);
    addEventListener('pagehide', this.onPageHide);
    addEventListener('pageshow', this.onPageShow);
  }

  /**
   * The first sync brings the whole board in one transaction, and Yjs encodes
   * every transaction once more for the document's `update` listeners, before
   * the board's first render.
   * Neither listener needs that copy: the provider never sends back what it
   * applied itself, and IndexedDB is given the whole state in one write once
   * the board is on screen. So the two listen again as soon as the sync has
   * been applied: at `synced`, or at the latest once the task that applied it
   * ends (a microtask), so no later change can slip past them.
   */
  private quietFirstSync(): void {
    const listeners = [this.provider.boundDocumentUpdateHandler, this.persistence._storeUpdate];
    const onBefore = (transaction: Y.Transaction) => {
      if (transaction.origin !== this.provider) return;
      this.doc.off('beforeTransaction', onBefore);
      for (const listener of listeners) this.doc.off('update', listener);
      let listening = false;
      const listenAgain = () => {
        if (listening) return;
        listening = true;
        this.provider.off('synced', listenAgain);
        for (const listener of listeners) this.doc.on('update', listener);
        // Until IndexedDB is open its own start stores the whole state; after, this does.
        const store = () => this.persistence.db && !this.doc.isDestroyed && void storeState(this.persistence);
        if ('requestIdleCallback' in window) requestIdleCallback(store, { timeout: 2000 });
        else setTimeout(store, 200);
      };
      this.provider.on('synced', listenAgain);
      queueMicrotask(listenAgain);
    };
    this.doc.on('beforeTransaction', onBefore);
  }

  private readonly onClose = ({ event }: { event: { code: number; reason: string } }) => {
    const { code, reason } = CLOSE.viewLinkRevoked;
    if (event.code === code && event.reason === reason) {
      this.socket.disconnect(); // before the provider's retry, which would only be refused
      this.options.onRevoked?.();
    }
  };

  private readonly onNetwork = () => {
    this.update({ online: navigator.onLine });
    // Back online: connect now rather than when the provider's backoff (up to 30 s) next tries.
    if (navigator.onLine && this.socket.status !== WebSocketStatus.Connected) void this.socket.connect();
  };

  /** Leaving the page (a reload, a closed tab, another address) leaves the board now: the server removes this person as the socket closes. */
  private readonly onPageHide = () => {
    this.provider.awareness?.setLocalState(null);
    this.socket.disconnect();
  };

  /** Back from the browser's back-forward cache: join again. */
  private readonly onPageShow = (event: PageTransitionEvent) => {
    if (!event.persisted) return;
    if (this.present) this.provider.awareness?.setLocalState({ user: this.me });
    // The close asked for at `pagehide` may be delivered only now that the page runs again,
    // and the provider ignores a connect while it still counts the closing socket as connected.
    if (this.socket.status !== WebSocketStatus.Connected) {
      void this.socket.connect();
      return;
    }
    const connectOnceClosed = ({ status }: { status: WebSocketStatus }) => {
      if (status !== WebSocketStatus.Disconnected) return;
      this.socket.off('status', connectOnceClosed);
      void this.socket.connect();
    };
    this.socket.on('status', connectOnceClosed);
  };

  /** A person's own edit (a write, an undo or a redo) waits until the server acknowledges it. */
  private readonly countEdit = (transaction: Y.Transaction) => {
    if (transaction.origin !== LOCAL_ORIGIN && transaction.origin !== this.undo) return;
    if (!this.unsent.add(transaction)) return;
    // Not through `update`: the provider counts this edit's message only after this transaction, so it is not acknowledged yet.
    this.state = { ...this.state, edits: this.unsent.count };
    this.changed();
  };

  private update(partial: Partial<SyncState>): void {
    this.state = { ...this.state, ...partial };
    // The server refuses a read-only connection's updates (this browser's copy loading, say) and never acknowledges them: none waits to be saved.
    if (this.readOnly) this.state.pending = 0;
    const { connected, synced, pending } = this.state;
    if (connected && synced && pending === 0 && this.state.edits > 0) {
      this.unsent.settle();
      this.state = { ...this.state, edits: 0 };
    }
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Hears of connection, sync and read-only changes. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get mode(): BoardMode {
    return (this.doc.getMap('meta').get('mode') as BoardMode | undefined) ?? 'draw';
  }

  /** Settles once this browser's copy of the board (IndexedDB) is in the document, online or not. */
  get localCopyLoaded(): Promise<unknown> {
    return this.persistence.whenSynced;
  }

  /**
   * Runs a domain mutation (the server's own, see board/mutations/draw.ts and
   * board/mutations/todo.ts) on the local document as one undoable transaction. A
   * rejected change changes nothing and is explained to the person.
   */
  write<T>(mutate: (w: BoardWrite) => T): T | undefined {
    if (this.readOnly) {
      toast('This board is read-only for you.', 'warn');
      return undefined;
    }
    try {
      return localWrite(
        this.doc,
        { boardId: this.boardId, mode: this.mode, author: authorTag(), textSize: (node) => this.textSize(node) },
        mutate,
        LOCAL_ORIGIN,
      );
    } catch (error) {
      if (error instanceof BoardError) toast(error.message, 'warn');
      else throw error;
      return undefined;
    }
  }

  /** Edits the server compensated are shown, not silently lost. */
  private reportRepairs(payload: string): void {
    let message: CollabStateless;
    try {
      const parsed = CollabStateless.safeParse(JSON.parse(payload));
      if (!parsed.success) return; // not ours
      message = parsed.data;
    } catch {
      return; // not JSON: not ours
    }
    switch (message.type) {
      case 'compensated':
        for (const repair of message.repairs)
          toast(`The server ${repair.action} a change to ${repair.kind}: ${repair.reason}`, 'warn', 7000);
        return;
      default: {
        const unknown: never = message.type;
        return unknown;
      }
    }
  }

  /** The other people on the board, from awareness. */
  people(): Person[] {
    const states = this.provider.awareness?.getStates() ?? new Map();
    const people: Person[] = [];
    for (const [clientId, state] of states) {
      if (clientId === this.doc.clientID || !state.user) continue;
      people.push({ ...(state.user as Person), cursor: state.cursor, editing: state.editing ?? undefined });
    }
    return people;
  }

  private get present(): boolean {
    return this.options.present ?? true;
  }

  setCursor(cursor: { x: number; y: number } | null): void {
    if (this.present) this.provider.awareness?.setLocalStateField('cursor', cursor);
  }

  /** Tells the others which text this person is typing in (null: none). */
  setEditing(id: string | null): void {
    if (this.present) this.provider.awareness?.setLocalStateField('editing', id);
  }

  /**
   * Reconnects, so the server authorises the key now held afresh (after the person entered one,
   * locked or unlocked). A lock change may already have closed the socket (4401): then there is
   * nothing to wait for, and disconnect() would only cancel the provider's own retry.
   */
  reconnect(): void {
    if (!this.socket.webSocket) return void this.socket.connect();
    // connect() does nothing while the old socket is still closing: wait for it to be closed.
    const again = () => {
      this.socket.off('close', again);
      void this.socket.connect();
    };
    this.socket.on('close', again);
    this.socket.disconnect();
  }

  destroy(): void {
    removeEventListener('online', this.onNetwork);
    removeEventListener('offline', this.onNetwork);
    removeEventListener('pagehide', this.onPageHide);
    removeEventListener('pageshow', this.onPageShow);
    this.undo.destroy();
    this.provider.destroy();
    this.socket.destroy();
    void this.persistence.destroy();
    this.doc.destroy();
  }
}
