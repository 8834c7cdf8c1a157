/** The author tag of a browser: `user:<uuid>` from its `?client=<uuid>`, else a fresh UUID. */
import { randomUUID } from 'node:crypto';
import { isUuid } from '../../schema/index.js';

export function clientAuthor(client: string | null | undefined): string {
  return `user:${isUuid(client) ? client.toLowerCase() : randomUUID()}`;
}
