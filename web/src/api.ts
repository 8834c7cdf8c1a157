/** What the app keeps and asks of the server outside the Yjs sync: identity, keys, recent boards, REST calls. */

const DEVICE_KEY = 'boards.device';
const RECENT_KEY = 'boards.recent';
const MAX_RECENT = 12;

/** The per-device UUID; human edits are tagged `user:<uuid>`. */
export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = crypto.randomUUID();
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

export const authorTag = () => `user:${deviceId()}`;

/** Keys live for the browser session only: a key is never written to disk. */
export const keys = {
  get: (boardId: string) => sessionStorage.getItem(`boards.key.${boardId}`) ?? undefined,
  set: (boardId: string, key: string) => sessionStorage.setItem(`boards.key.${boardId}`, key),
  forget: (boardId: string) => sessionStorage.removeItem(`boards.key.${boardId}`),
};

/** A board opened in this browser; `title` as last seen (docs/titles.md). */
export type Recent = { id: string; mode: string; opened: number; title?: string };

export const recent = {
  list(): Recent[] {
    try {
      return JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as Recent[];
    } catch {
      return [];
    }
  },
  /** Puts a board first; without a `title` it keeps the one last seen (the document may not have loaded yet). */
  add(id: string, mode: string, title?: string): void {
    const all = recent.list();
    const known = title ?? all.find((entry) => entry.id === id)?.title;
    const list = all.filter((entry) => entry.id !== id);
    list.unshift({ id, mode, opened: Date.now(), ...(known && { title: known }) });
    localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, MAX_RECENT)));
  },
  /** Records a board's new title (or none) where it already is in the list. */
  rename(id: string, title: string | undefined): void {
    const list = recent.list();
    const entry = list.find((candidate) => candidate.id === id);
    if (!entry || entry.title === title) return;
    if (title) entry.title = title;
    else delete entry.title;
    localStorage.setItem(RECENT_KEY, JSON.stringify(list));
  },
  remove(id: string): void {
    localStorage.setItem(RECENT_KEY, JSON.stringify(recent.list().filter((entry) => entry.id !== id)));
  },
};

/** A request the server answered with an error; status 0 (code `offline`) when it never reached the server. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    const error = body?.error; // body is what the server answered, JSON or nothing
    super(typeof error === 'string' ? error : `HTTP ${status}`);
  }
}

/** A JSON request to the service, with the board's key when the app holds one. */
export async function api<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  boardId?: string,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const key = boardId ? keys.get(boardId) : undefined;
  if (key) headers['x-board-key'] = key;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch(() => {
    // fetch rejects (a TypeError, "Failed to fetch") only when there was no answer at all.
    throw new ApiError(0, { error: 'You are offline: this needs the network.', code: 'offline' });
  });
  const text = await response.text();
  const parsed = text && (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : {};
  if (!response.ok) throw new ApiError(response.status, parsed);
  return parsed as T;
}

export type BoardMeta = { boardId: string; mode: 'draw' | 'todo'; title?: string; lockMode: 'write' | 'all' | null };

/** The board's mode and lock; tells a missing, erased, key-locked or unreachable (offline) board apart. */
export async function loadMeta(
  boardId: string,
): Promise<BoardMeta | { missing: true } | { deleted: string } | { needsKey: true } | { offline: true }> {
  try {
    return await api<BoardMeta>('GET', `/api/boards/${boardId}/meta`, undefined, boardId);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 0) return { offline: true };
    if (error.status === 401) return { needsKey: true };
    if (error.status === 404) {
      const marker = await fetch(`/api/boards/${boardId}`)
        .then((r) => (r.ok ? r.json() : null))
        .catch(() => null);
      return marker?.deleted ? { deleted: marker.deleted_at as string } : { missing: true };
    }
    throw error;
  }
}
