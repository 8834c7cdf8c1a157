/**
 * Two people typing in one text: what an open editor shows when someone
 * else's typing reaches the text, keeping what this person typed and has not
 * written yet, and where their caret was.
 */
import { textSplice } from '../../../board/model/item-map.js';

/** Where a position of `from` lands in `to`, `to` being `from` with one range replaced. */
function mapPosition(from: string, to: string, position: number): number {
  const { start, end, text } = textSplice(from, to);
  if (position <= start) return position;
  if (position >= end) return position + text.length - (end - start);
  return start + text.length;
}

/** `local` and `remote` both grew from `base`: `remote` with the change `local` made to `base` applied on top. */
export function rebaseText(base: string, local: string, remote: string): string {
  if (local === base) return remote;
  const mine = textSplice(base, local);
  const start = mapPosition(base, remote, mine.start);
  const end = Math.max(start, mapPosition(base, remote, mine.end));
  return remote.slice(0, start) + mine.text + remote.slice(end);
}

/** A selection of `before` carried over to `after`. */
export function mapSelection(before: string, after: string, start: number, end: number): [number, number] {
  return [mapPosition(before, after, start), mapPosition(before, after, end)];
}
