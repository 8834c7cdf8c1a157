/** Readable names for people and agents: the author tags (`user:<uuid>`, `ai:<surface>`) are for machines. */
import { deviceId } from './api.js';

/** A person's short, stable name, from their device UUID: `Guest 8788`. Presence uses the same. */
export function guestName(id: string): string {
  return `Guest ${id.slice(0, 4)}`;
}

/** Who an author tag is: `you` for this device, `AI (rest)` for `ai:rest`, `Guest 8788` for another person's device. */
export function authorName(author: string): string {
  const colon = author.indexOf(':');
  const [kind, rest] = colon < 0 ? ['', author] : [author.slice(0, colon), author.slice(colon + 1)];
  if (kind === 'ai') return `AI (${rest})`;
  if (kind === 'user') return rest === deviceId() ? 'you' : guestName(rest);
  return author;
}

/** How long the start of an item's text in its name is, in characters. */
const NAME_TEXT_CHARS = 40;

/**
 * An item's accessible name: its kind, the start of its text as read (Markdown
 * marks dropped) and who made it, as in "Text: Buy milk, by you".
 */
export function itemName(kind: string, author: string, text = ''): string {
  const plain = text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // a link reads as its words
    .replace(/^\s*(?:[-*+]|\d+\.)\s+(?:\[[ xX]\]\s*)?/gm, '') // list marks and task boxes
    .replace(/[#*_`>~]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const start = plain.length > NAME_TEXT_CHARS ? `${plain.slice(0, NAME_TEXT_CHARS - 1).trimEnd()}…` : plain;
  return `${kind}${start ? `: ${start}` : ''}, by ${authorName(author)}`;
}
