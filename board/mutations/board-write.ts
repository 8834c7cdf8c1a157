/** What a domain mutation is handed: the board's maps inside one open transaction, and who writes. */
import type { BoardMode } from '../../schema/index.js';
import type { TextNode, WriteMaps } from '../model/document-model.js';
import { errors } from '../model/errors.js';

/** The surfaces a write can come from; carried as the Y transaction origin. */
export type Surface = 'rest' | 'mcp' | 'ws' | 'yjs' | 'import' | 'system';

/**
 * The typed origin of every server-side Y transaction, so observers can tell who did what:
 * `author` is the caller's tag, `authors` the tags its edits declared (each item's `author`, else the caller's).
 */
export type BoardOrigin = { source: Surface; author: string; authors?: readonly string[] };

export function isBoardOrigin(origin: unknown): origin is BoardOrigin {
  return typeof origin === 'object' && origin !== null && 'source' in origin && 'author' in origin;
}

/** Default author tag per surface (the specification's decisions). */
export const DEFAULT_AUTHORS: Record<Surface, string> = {
  rest: 'ai:rest',
  mcp: 'ai:mcp',
  ws: 'user:anonymous',
  yjs: 'user:anonymous',
  import: 'ai:import',
  system: 'system:template',
};

/** Where a write puts and finds image payloads: the document holds only their content hash. */
export interface BlobPayloads {
  /** Stores a data URL and returns its hash; durable once the write it belongs to resolves. */
  put(boardId: string, dataUrl: string): string;
  /** A payload this instance holds, else null. */
  get(boardId: string, hash: string): string | null;
}

export type BoardWrite = {
  boardId: string;
  /** The board's mode; a mode switch sets it and the registry follows in the same store unit. */
  mode: BoardMode;
  /** The board's maps as this write sees them; changes reach the document only when the write commits. */
  maps: WriteMaps;
  blobs: BlobPayloads;
  /** Author tag for items this write creates. */
  author: string;
  /** The author tags this write's edits declared, as `stamp` records them (the versions' authors). */
  authors?: Set<string>;
  /** ISO timestamp stamped as `last_updated` on every item this write changes. */
  now: string;
  /** Mints ids for new items. */
  newId: () => string;
  /**
   * The size a text or link is laid out at, which strokes anchored to it are
   * routed around (images carry theirs): the shared item layout on the server,
   * the drawn element in the app; undefined when unknown.
   */
  textSize: (node: TextNode) => { width: number; height: number } | undefined;
  /** Item counts of this write, see itemCount in items.ts. */
  counts: Partial<Record<CountedMap, number>>;
};

/** The maps whose item counts quotas limit. */
export type CountedMap = 'texts' | 'lines' | 'images' | 'shapes' | 'frames' | 'columns' | 'tasks';

/** Rejects draw operations on todo boards and the reverse. */
export function requireMode(write: BoardWrite, mode: BoardMode): void {
  if (write.mode !== mode) throw errors.wrongMode(mode);
}
