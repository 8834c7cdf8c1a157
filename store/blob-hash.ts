/** Image payloads are stored by content address, the same in every store engine. */
import { createHash } from 'node:crypto';

/** The content address of an image data URL. */
export function blobHash(dataUrl: string): string {
  return createHash('sha256').update(dataUrl).digest('hex');
}
