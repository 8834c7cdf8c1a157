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
