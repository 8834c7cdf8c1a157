/**
 * Images from the person's machine (paste, drop, file picker): checked against
 * the size limit, given a thumbnail of at most 64 px and 8000 bytes, and
 * uploaded through REST (the payload is stored outside the document); while
 * offline, kept here until the board is connected (waiting-images.ts).
 */
import { base64DecodedBytes, MAX_IMAGE_BYTES, MAX_THUMBNAIL_CHARS, parseImageDataUrl } from '../../../schema/index.js';
import { authorTag } from '../api.js';
import { required, toast } from '../ui.js';
import { sendImage } from './waiting-images.js';

const THUMB_SIDE_PX = 64;
const MAX_SHOWN_SIDE_PX = 480;

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('not an image this browser can show'));
    image.src = src;
  });
}

/** A thumbnail of at most 64 px that fits in 8000 bytes (WebP, then JPEG, at falling quality). */
export function thumbnail(image: HTMLImageElement): string | undefined {
  const scale = Math.min(1, THUMB_SIDE_PX / Math.max(image.naturalWidth, image.naturalHeight));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
  canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
  required(canvas.getContext('2d'), 'a 2D canvas').drawImage(image, 0, 0, canvas.width, canvas.height);
  for (const type of ['image/webp', 'image/jpeg']) {
    for (const quality of [0.8, 0.6, 0.4, 0.2]) {
      const url = canvas.toDataURL(type, quality);
      if (url.startsWith(`data:${type}`) && url.length <= MAX_THUMBNAIL_CHARS) return url;
    }
  }
  return undefined;
}

/**
 * Uploads an image file so that its top-left is at (x, y), at `size` if given (a copied image keeps its own),
 * else at its natural size up to 480 px; refuses files over the limit with a clear message.
 */
export async function uploadImage(
  boardId: string,
  file: Blob,
  x: number,
  y: number,
  size?: { width: number; height: number },
): Promise<boolean> {
  const dataUrl = await readAsDataUrl(file);
  const parsed = parseImageDataUrl(dataUrl);
  if (!parsed) {
    toast('Only PNG, JPEG, GIF, WebP and SVG images can go on a board.', 'error');
    return false;
  }
  const bytes = base64DecodedBytes(parsed.base64);
  if (bytes > MAX_IMAGE_BYTES) {
    toast(
      `This image is ${(bytes / 1024).toFixed(0)} KB; a board takes images of at most ${MAX_IMAGE_BYTES / 1024} KB.`,
      'error',
      7000,
    );
    return false;
  }
  let image: HTMLImageElement;
  try {
    image = await loadImage(dataUrl);
  } catch (error) {
    toast(`This file could not be read as an image: ${(error as Error).message}.`, 'error');
    return false;
  }
  const scale = Math.min(1, MAX_SHOWN_SIDE_PX / Math.max(image.naturalWidth || 1, image.naturalHeight || 1));
  const body = {
    x: Math.round(x),
    y: Math.round(y),
    width: size?.width ?? Math.max(1, Math.round((image.naturalWidth || 200) * scale)),
    height: size?.height ?? Math.max(1, Math.round((image.naturalHeight || 200) * scale)),
    dataUrl,
    thumbDataUrl: thumbnail(image),
    // The person's, not the REST surface's: an upload from the app is a person's edit.
    author: authorTag(),
  };
  return sendImage(boardId, body);
}

/** Uploads several images at once, each a little below and right of the one before so none hides another. */
export function uploadImages(boardId: string, files: File[], at: { x: number; y: number }): void {
  files.forEach((file, index) => void uploadImage(boardId, file, at.x + index * 24, at.y + index * 24));
}
