/**
 * Accept-then-compensate for updates from Yjs clients. Rejecting a Yjs update
 * would force the client to throw its document away, so the server accepts it
 * and, in the same tick, repairs what breaks the board's rules: an invalid or
 * over-quota item it added is removed, one it changed is restored. The repair
 * is an ordinary server transaction, so the offending client converges, and
 * the JSON channel (which reports net changes) never shows the bad state.
 */
import { isTransactionOrigin } from '@hocuspocus/server';
import * as Y from 'yjs';
import type { z } from 'zod';
import { boardMaps, CONTENT_MAPS, DRAW_MAPS, type MapName, TODO_MAPS } from '../../board/model/document-model.js';
import type { WritableMap } from '../../board/model/item-map.js';
import { COLUMNS_PER_LANE, IMAGE_BYTES_TOTAL, ITEM_QUOTAS } from '../../board/model/item-quotas.js';
import type { BoardMode } from '../../schema/index.js';
import {
  StoredColumn,
  StoredColWidth,
  StoredFrame,
  StoredImage,
  StoredLane,
  StoredLink,
  StoredShape,
  StoredStroke,
  StoredTask,
  StoredText,
  StoredTitle,
} from '../../schema/index.js';

export type ClientChange = { kind: MapName; key: string; action: 'add' | 'update' | 'delete'; oldValue: unknown };

/** What the server did about one item, as the offending client is told. */
export type Repair = { kind: MapName; id: string; action: 'removed' | 'restored'; reason: string; offense: boolean };

export type CompensationContext = { mode: BoardMode; blobExists(hash: string): boolean };

const DRAW_KINDS = new Set<MapName>(DRAW_MAPS);
const TODO_KINDS = new Set<MapName>(TODO_MAPS);

function firstIssue(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issue = result.error.issues[0];
  return `${issue.path.join('.') || 'item'}: ${issue.message}`;
}

/**
 * True when every object in a value is a plain object or array. The Yjs
 * decoder (lib0's readAny) turns an item's `__proto__` key into its prototype,
 * so fields hidden there pass a schema check (which reads inherited
 * properties) yet vanish from every snapshot: such an item is not what it
 * seems and is refused.
 */
function isPlainJson(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === null || typeof next !== 'object') continue;
    const prototype = Object.getPrototypeOf(next);
    if (prototype !== (Array.isArray(next) ? Array.prototype : Object.prototype)) return false;
    for (const key of Object.keys(next)) stack.push((next as Record<string, unknown>)[key]);
  }
  return true;
}

/**
 * The settings a client may write in `meta`, each with its stored shape; any
 * other key (the mirrored `mode` among them) is restored.
 */
const META_SETTINGS: Record<string, z.ZodType | undefined> = { colWidth: StoredColWidth, title: StoredTitle };

/** A map's value as the rules read it: an item as its plain fields, a setting as it is. */
function storedValue(doc: Y.Doc, kind: MapName, key: string): unknown {
  const maps = boardMaps(doc);
  return kind === 'meta' ? maps.meta.get(key) : maps[kind].get(key);
}

/** Why a value a client wrote breaks the rules, or null when it is fine. */
function problemWith(doc: Y.Doc, change: ClientChange, value: unknown, context: CompensationContext): string | null {
  if (value instanceof Y.AbstractType) return 'an item is a map of its fields, not another shared type';
  if (!isPlainJson(value)) return 'item fields are plain JSON or text (a __proto__ key is not a field)';
  if (change.kind !== 'meta' && (typeof value !== 'object' || value === null || Array.isArray(value)))
    return 'items are JSON objects';
  if (change.kind === 'meta') {
    const setting = Object.hasOwn(META_SETTINGS, change.key) ? META_SETTINGS[change.key] : undefined;
    return setting ? firstIssue(setting, value) : `unknown setting ${change.key}`;
  }
  if (context.mode === 'todo' && DRAW_KINDS.has(change.kind)) return 'draw items need a draw board';
  if (context.mode === 'draw' && TODO_KINDS.has(change.kind)) return 'columns, tasks and lanes need a todo board';
  const item = value as Record<string, unknown>;
  if (change.action === 'update' && (change.oldValue as { author?: unknown } | undefined)?.author !== item.author) {
    return 'the author of an item never changes';
  }
  switch (change.kind) {
    case 'texts':
      return (
        firstIssue(item.kind === 'link' ? StoredLink : StoredText, value) ??
        (item.id === change.key ? null : 'id must equal its key')
      );
    case 'lines':
      return firstIssue(StoredStroke, value) ?? (item.id === change.key ? null : 'id must equal its key');
    case 'images': {
      const problem = firstIssue(StoredImage, value) ?? (item.id === change.key ? null : 'id must equal its key');
      if (problem) return problem;
      return context.blobExists(item.blob as string)
        ? null
        : 'unknown image payload: add images through REST, MCP or the JSON channel';
    }
    case 'shapes':
      return firstIssue(StoredShape, value) ?? (item.id === change.key ? null : 'id must equal its key');
    case 'frames':
      return firstIssue(StoredFrame, value) ?? (item.id === change.key ? null : 'id must equal its key');
    case 'columns':
      return firstIssue(StoredColumn, value) ?? (item.id === change.key ? null : 'id must equal its key');
    case 'tasks': {
      const problem = firstIssue(StoredTask, value) ?? (item.id === change.key ? null : 'id must equal its key');
      if (problem) return problem;
      return boardMaps(doc).columns.has(item.column_id as string) ? null : 'no column with this column_id';
    }
    case 'lanes':
      return (
        firstIssue(StoredLane, value) ?? (String(item.lane) === change.key ? null : 'a lane is keyed by its index')
      );
  }
}

/** The repairs that bring a board back within its rules after one client transaction. */
export function checkClientChanges(doc: Y.Doc, changes: ClientChange[], context: CompensationContext): Repair[] {
  const repairs: Repair[] = [];
  const repaired = new Set<string>();
  const repair = (change: ClientChange, reason: string, offense = true) => {
    repaired.add(`${change.kind}\u0000${change.key}`);
    repairs.push({
      kind: change.kind,
      id: change.key,
      action: change.action === 'add' ? 'removed' : 'restored',
      reason,
      offense,
    });
  };
  for (const change of changes) {
    if (change.action === 'delete') continue;
    const problem = problemWith(doc, change, storedValue(doc, change.kind, change.key), context);
    if (problem) repair(change, problem);
  }
  // Quotas: the newest additions of this transaction go first.
  const adds = changes
    .filter((change) => change.action === 'add' && !repaired.has(`${change.kind}\u0000${change.key}`))
    .reverse();
  for (const { map: kind, limit } of Object.values(ITEM_QUOTAS)) {
    let excess = boardMaps(doc)[kind].size - limit;
    for (const change of adds) {
      if (excess <= 0) break;
      if (change.kind !== kind || repaired.has(`${kind}\u0000${change.key}`)) continue;
      // The repair names the map the client wrote to (the Yjs client's view of the board).
      repair(change, `a board holds at most ${limit} ${kind}`);
      excess -= 1;
    }
  }
  const maps = boardMaps(doc);
  const columns = [...maps.columns.values()].filter((c) => !repaired.has(`columns\u0000${c.id}`));
  for (const change of adds.filter((c) => c.kind === 'columns' && !repaired.has(`columns\u0000${c.key}`))) {
    const lane = (maps.columns.get(change.key) as { lane: number }).lane;
    if (
      columns.filter((column) => column.lane === lane && !repaired.has(`columns\u0000${column.id}`)).length >
      COLUMNS_PER_LANE.limit
    ) {
      repair(change, COLUMNS_PER_LANE.reason);
    }
  }
  let bytes = 0;
  for (const image of maps.images.values()) if (!repaired.has(`images\u0000${image.id}`)) bytes += image.bytes;
  for (const change of adds.filter((c) => c.kind === 'images' && !repaired.has(`images\u0000${c.key}`))) {
    if (bytes <= IMAGE_BYTES_TOTAL.limit) break;
    bytes -= (maps.images.get(change.key) as { bytes: number }).bytes;
    repair(change, IMAGE_BYTES_TOTAL.reason);
  }
  // A column a client deleted takes its tasks along, as it does on every other surface.
  for (const change of changes.filter((c) => c.kind === 'columns' && c.action === 'delete')) {
    for (const task of maps.tasks.values()) {
      if (task.column_id === change.key)
        repairs.push({
          kind: 'tasks',
          id: task.id,
          action: 'removed',
          reason: 'its column was deleted',
          offense: false,
        });
    }
  }
  return repairs;
}

/** Applies repairs; call inside one server transaction. `originals` maps kind/key to the value before the client's change. */
export function applyRepairs(doc: Y.Doc, repairs: Repair[], changes: ClientChange[]): void {
  const before = new Map(changes.map((change) => [`${change.kind}\u0000${change.key}`, change.oldValue]));
  const maps = boardMaps(doc);
  for (const repair of repairs) {
    const map = maps[repair.kind] as WritableMap<unknown>;
    const old = before.get(`${repair.kind}\u0000${repair.id}`);
    if (repair.action === 'restored' && old !== undefined) map.set(repair.id, old);
    else map.delete(repair.id);
  }
}

/**
 * The mode the document mirrors (meta.mode, written in the same transaction
 * as a mode switch's seed), as it stood before the client's transaction. The
 * registry is the authority, but another instance's switch can reach this
 * document before its new record reaches this instance; the mirror moves with
 * the items it governs. A client's own write to meta.mode never counts.
 */
function mirroredMode(doc: Y.Doc, changes: ClientChange[]): BoardMode | undefined {
  const own = changes.find((change) => change.kind === 'meta' && change.key === 'mode');
  const mode = own ? own.oldValue : boardMaps(doc).meta.get('mode');
  return mode === 'draw' || mode === 'todo' ? mode : undefined;
}

/** Calls `note` with every change of a board's content maps and settings, with its transaction. */
export function watchChanges(doc: Y.Doc, note: (transaction: Y.Transaction, change: ClientChange) => void): void {
  const maps = boardMaps(doc);
  for (const kind of CONTENT_MAPS) {
    maps[kind].observe((changes, transaction) => {
      for (const { key, before, after } of changes) {
        const action = before === undefined ? 'add' : after === undefined ? 'delete' : 'update';
        note(transaction, { kind, key, action, oldValue: before });
      }
    });
  }
  maps.meta.observe((event) => {
    for (const [key, change] of event.changes.keys)
      note(event.transaction, { kind: 'meta', key, action: change.action, oldValue: change.oldValue });
  });
}

/** The origin of a server repair transaction. */
export const COMPENSATION_ORIGIN = { source: 'system', author: 'system:compensation' } as const;

/**
 * Watches a loaded document: after every transaction that came from a Yjs
 * client, the changes it made are checked and repaired in a server transaction
 * of the same tick. `repaired` hears of it with the client's origin.
 */
export function attachCompensator(
  doc: Y.Doc,
  context: () => CompensationContext | null,
  repaired: (origin: unknown, repairs: Repair[]) => void,
): void {
  const pending = new Map<Y.Transaction, ClientChange[]>();
  const fromClient = (origin: unknown) => isTransactionOrigin(origin) && origin.source === 'connection';
  watchChanges(doc, (transaction, change) => {
    if (!fromClient(transaction.origin)) return;
    const list = pending.get(transaction) ?? [];
    list.push(change);
    pending.set(transaction, list);
  });
  doc.on('afterTransaction', (transaction: Y.Transaction) => {
    const changes = pending.get(transaction);
    if (!changes) return;
    pending.delete(transaction);
    const rules = context();
    if (!rules) return; // the board is gone; nothing to keep consistent
    const repairs = checkClientChanges(doc, changes, { ...rules, mode: mirroredMode(doc, changes) ?? rules.mode });
    if (repairs.length === 0) return;
    doc.transact(() => applyRepairs(doc, repairs, changes), COMPENSATION_ORIGIN);
    repaired(transaction.origin, repairs);
  });
}
