/**
 * What the OpenAPI description of a REST route says, for the routes that are
 * not rows of the operation table: each module that serves such routes keeps
 * their words beside its handlers, and adapters/rest/openapi.ts gathers them.
 */
import { z } from 'zod';
import {
  StoredColumn,
  StoredImage,
  StoredLane,
  StoredLink,
  StoredStroke,
  StoredTask,
  StoredText,
  StoredTitle,
  toJsonSchema,
} from '../../schema/index.js';

export type Schema = Record<string, unknown>;
export const json = (schema: z.ZodType, io: 'input' | 'output' = 'output') => toJsonSchema(schema, io);

const PublicImage = StoredImage.omit({ blob: true }).extend({ dataUrl: z.string().nullable() });
const TextNode = z.union([StoredText, StoredLink]);
const DrawContent = { texts: z.array(TextNode), lines: z.array(StoredStroke), images: z.array(PublicImage) };
const TodoContent = {
  colWidth: z.number().optional(),
  columns: z.array(StoredColumn).optional(),
  tasks: z.array(StoredTask).optional(),
  lanes: z.array(StoredLane.omit({ last_updated: true })).optional(),
};
export const JsonSnapshot = z.object({
  boardId: z.string(),
  mode: z.enum(['draw', 'todo']),
  title: StoredTitle.optional(),
  etag: z.string(),
  ...DrawContent,
  ...TodoContent,
});
export const BrowserSnapshot = z.union([
  z.object(DrawContent),
  z.object({ deleted: z.literal(true), deleted_at: z.string() }),
]);
export type Operation = {
  summary: string;
  tag: string;
  body?: z.ZodType;
  query?: Record<string, Schema & { description: string }>;
  ok: { status?: number; description: string; schema?: Schema; contentType?: string; headers?: Record<string, Schema> };
  errors: number[];
  /** Whether a board's lock may apply, so X-Board-Key opens it (default: the path names a board). */
  locked?: boolean;
  /** The JSON channel takes the key as a WebSocket subprotocol instead of X-Board-Key. */
  keyAsSubprotocol?: boolean;
  token?: boolean;
  description?: string;
};

export const BOARD_ERRORS = [400, 401, 404, 429];
export const WRITE_ERRORS = [400, 401, 404, 413, 415, 429];

/** A described route: its path in OpenAPI's `{param}` form, its method, and what OpenAPI says of it. */
export type RouteWords = [string, string, Operation];

export const etagHeader = { ETag: { type: 'string' } };
export const boardPath = '/api/boards/{boardId}';
