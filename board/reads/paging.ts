/**
 * Pages of the reads that list (docs/mcp.md, "Pages"): an answer keeps its
 * shape, and its lists are cut so that its JSON text stays within a byte
 * budget, with `next_cursor` when more remain. Every surface pages through
 * here. A page continues after the last item of the previous one in a fixed
 * order per list (ids, or board order), not at an offset, so an edit between
 * two pages neither repeats nor skips the items it did not move.
 */
import { fromBase64UrlEncoded, toBase64UrlEncoded } from 'lib0/buffer';
import { decodeUtf8, encodeUtf8 } from 'lib0/string';
import type { BoardError } from '../model/errors.js';
import { errors } from '../model/errors.js';

/** A position in a list's order: compared element by element, numbers as numbers, strings by locale then code unit. */
export type Key = readonly (string | number)[];

/** One list of an answer: the key it fills, its items in the answer's order, each item's key and how it shows. */
export type PageList<T = unknown> = {
  name: string;
  items: readonly T[];
  key: (item: T) => Key;
  show?: (item: T) => unknown;
};

/** A list of any item type, as pageAnswer takes them (each list typed where it is made). */
export const listOf = <T>(list: PageList<T>) => list as unknown as PageList<unknown>;

export type PageRequest = {
  /** The tool (or route) the cursor belongs to: a cursor of another is refused. */
  tool: string;
  boardId: string;
  cursor?: string;
  /** Bytes of JSON text an answer may take; REST pages by count only (Infinity). */
  budget: number;
  /** Items a page holds at most. */
  limit?: number;
  /** Items the caller named: shown whole even when one alone is over the budget. */
  whole?: (item: unknown) => boolean;
};

/** Where a page starts, as a cursor carries it, with what a tool pins for its later pages (`from` of get_changes: a version or an ETag). */
export type CursorState = { list: number; key: Key; from?: number | string };

/** UTF-8 bytes of a string (JSON text holds no lone surrogate: JSON.stringify escapes them). */
export function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code < 0xdc00) {
      bytes += 2; // with its low surrogate: 4 bytes for 2 code units
      i++;
    } else bytes += 2;
  }
  return bytes;
}

export const jsonBytes = (value: unknown): number => utf8Bytes(JSON.stringify(value));

/** The `,"next_cursor":"…"` an answer grows by. */
const cursorFieldBytes = (cursor: string) => cursor.length + 17;

/** The board a cursor belongs to, as much of its id as tells boards apart. */
const boardTag = (boardId: string) => boardId.slice(0, 8);

export function encodeCursor(tool: string, boardId: string, state: CursorState): string {
  const { list, key, from } = state;
  return toBase64UrlEncoded(
    encodeUtf8(
      JSON.stringify({ t: tool, b: boardTag(boardId), l: list, k: key, ...(from !== undefined && { f: from }) }),
    ),
  );
}

const badCursor = (reason: string): BoardError => errors.invalidCursor(reason);

/** A cursor this tool gave for this board, or invalid_cursor. */
export function decodeCursor(cursor: string, tool: string, boardId: string): CursorState {
  let state: { t?: unknown; b?: unknown; l?: unknown; k?: unknown; f?: unknown };
  try {
    state = JSON.parse(decodeUtf8(fromBase64UrlEncoded(cursor)));
  } catch {
    throw badCursor('it is not a cursor this service gave');
  }
  const key = state?.k;
  if (
    typeof state !== 'object' ||
    !Number.isInteger(state.l) ||
    (state.l as number) < 0 ||
    !Array.isArray(key) ||
    !key.every((part) => typeof part === 'string' || typeof part === 'number') ||
    (state.f !== undefined && !Number.isInteger(state.f) && typeof state.f !== 'string')
  )
    throw badCursor('it is not a cursor this service gave');
  if (state.t !== tool || state.b !== boardTag(boardId))
    throw badCursor(`it was given by another tool or board; pass the next_cursor of ${tool} on this board`);
  return { list: state.l as number, key, ...(state.f !== undefined && { from: state.f as number | string }) };
}

export function compareKeys(a: Key, b: Key): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    const order = String(x).localeCompare(String(y));
    if (order !== 0) return order;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * An item cut to `room` bytes of JSON: its largest strings and arrays
 * shortened (a text's content, a task's description), marked `truncated:
 * true`. An item too large alone is shown so rather than not at all.
 */
export function fitItem(item: unknown, room: number): unknown {
  if (typeof item !== 'object' || item === null) return item;
  const fitted: Record<string, unknown> = { ...(item as Record<string, unknown>), truncated: true };
  for (let round = 0; round < 40; round++) {
    const over = jsonBytes(fitted) - room;
    if (over <= 0) return fitted;
    let largest: string | undefined;
    let largestBytes = 2;
    for (const [name, value] of Object.entries(fitted)) {
      if (typeof value !== 'string' && !Array.isArray(value)) continue;
      const bytes = jsonBytes(value);
      if (bytes > largestBytes) [largest, largestBytes] = [name, bytes];
    }
    if (largest === undefined) break;
    const value = fitted[largest] as string | unknown[];
    const kept = Math.floor(value.length * Math.max(0, (largestBytes - over - 8) / largestBytes));
    // A cut between the two halves of a surrogate pair would leave half a character.
    const end =
      typeof value === 'string' && kept > 0 && (value.charCodeAt(kept - 1) & 0xfc00) === 0xd800 ? kept - 1 : kept;
    fitted[largest] = value.slice(0, Math.min(end, value.length - 1));
  }
  const { id, kind } = item as { id?: unknown; kind?: unknown };
  return { id, ...(kind !== undefined && { kind }), truncated: true };
}

type Entry = { list: number; item: unknown; key: Key };

/**
 * The answer `envelope` with its lists filled: whole when it fits the budget
 * and no cursor is given (then exactly what an unpaged read answers), else the
 * page the cursor names, in each list's key order, with `next_cursor` when
 * items remain. A page holds at least one item; one too large alone is cut
 * (fitItem), unless the caller named it (`whole`).
 */
export function pageAnswer<T extends object>(
  envelope: T,
  lists: readonly PageList<unknown>[],
  request: PageRequest,
  pinned?: { from: number | string },
): T & { next_cursor?: string } {
  const rows = lists;
  const show = (list: PageList<unknown>, item: unknown) => (list.show ? list.show(item) : item);
  const filled = (shown: Map<string, unknown[]>) => {
    const answer: Record<string, unknown> = { ...(envelope as Record<string, unknown>) };
    for (const list of rows) answer[list.name] = shown.get(list.name) ?? [];
    return answer as unknown as T;
  };
  const start = request.cursor === undefined ? undefined : decodeCursor(request.cursor, request.tool, request.boardId);
  const total = rows.reduce((sum, list) => sum + list.items.length, 0);
  if (!start && total <= (request.limit ?? Infinity)) {
    const whole = new Map<string, unknown[]>();
    for (const list of rows)
      whole.set(list.name, [...(whole.get(list.name) ?? []), ...list.items.map((item) => show(list, item))]);
    const answer = filled(whole);
    if (request.budget === Infinity || jsonBytes(answer) <= request.budget) return answer;
  }

  const entries: Entry[] = [];
  rows.forEach((list, index) => {
    if (start && index < start.list) return;
    const keyed = list.items.map((item) => ({ list: index, item, key: list.key(item) }));
    keyed.sort((a, b) => compareKeys(a.key, b.key));
    for (const entry of keyed)
      if (!start || index > start.list || compareKeys(entry.key, start.key) > 0) entries.push(entry);
  });

  const shown = new Map<string, unknown[]>();
  let used = jsonBytes(filled(shown));
  let count = 0;
  let last: Entry | undefined;
  const cursorAfter = (entry: Entry) =>
    encodeCursor(request.tool, request.boardId, { list: entry.list, key: entry.key, ...pinned });
  for (const [index, entry] of entries.entries()) {
    if (count >= (request.limit ?? Infinity)) break;
    const list = rows[entry.list];
    const page = shown.get(list.name) ?? [];
    const more = index < entries.length - 1;
    const reserve = more ? cursorFieldBytes(cursorAfter(entry)) : 0;
    const comma = page.length ? 1 : 0;
    let item = show(list, entry.item);
    const bytes = jsonBytes(item) + comma;
    if (used + bytes + reserve > request.budget) {
      if (count > 0) break;
      if (!request.whole?.(entry.item)) item = fitItem(item, request.budget - used - reserve - comma);
    }
    page.push(item);
    shown.set(list.name, page);
    used += jsonBytes(item) + comma;
    count += 1;
    last = entry;
  }
  const answer: T & { next_cursor?: string } = filled(shown);
  if (last && last !== entries[entries.length - 1]) answer.next_cursor = cursorAfter(last);
  return answer;
}

/**
 * Text cut into pages (an export): the part of `text` that starts at the
 * cursor's offset and fits the budget beside `envelope`, at a line's end when
 * one is near. The pages joined are the text.
 */
export function pageText<T extends object>(
  envelope: T,
  field: string,
  text: string,
  request: PageRequest,
): T & { next_cursor?: string } {
  const start =
    request.cursor === undefined ? 0 : (decodeCursor(request.cursor, request.tool, request.boardId).key[0] as number);
  if (typeof start !== 'number' || start < 0 || start > text.length)
    throw badCursor('it is not a cursor this service gave');
  // A character is at least a byte: a rest longer than the budget cannot fit.
  if (text.length - start <= request.budget) {
    const whole = { ...envelope, [field]: text.slice(start) } as T;
    if (jsonBytes(whole) <= request.budget) return whole;
  }
  // The cursor field is at most this long: offsets below 10^15.
  const room = request.budget - jsonBytes({ ...envelope, [field]: '' }) - cursorFieldBytes(cursorAt(request, 1e15));
  // The longest part that fits, found by halving (a part's JSON grows with its length).
  let [fits, over] = [start, Math.min(text.length, start + room) + 1];
  while (over - fits > 1) {
    const middle = Math.floor((fits + over) / 2);
    if (jsonBytes(text.slice(start, middle)) - 2 <= room) fits = middle;
    else over = middle;
  }
  let end = fits;
  if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end -= 1;
  const newline = text.lastIndexOf('\n', end - 1);
  if (newline >= start && end - newline < 2_000) end = newline + 1;
  if (end === start) end = start + 1;
  return { ...envelope, [field]: text.slice(start, end), next_cursor: cursorAt(request, end) } as T & {
    next_cursor?: string;
  };
}

const cursorAt = (request: PageRequest, offset: number) =>
  encodeCursor(request.tool, request.boardId, { list: 0, key: [offset] });
