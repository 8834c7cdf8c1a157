/** REST routes of draw items: texts, strokes (alias lines), images, links, moves and erases. */
import type { FastifyInstance } from 'fastify';
import { DrawKind, ImageInput, LinkInput, MoveInput, StrokeInput, TextInput } from '../../schema/index.js';
import type { Boards } from '../../server/host/boards.js';
import { eraseItem, imageResult, linkResult, moveItem, strokeResult, upsertImage, upsertLink, upsertStroke, upsertText } from '../../server/board/draw.js';
import { deleteMutation, itemIdParam, parse, postMutation } from './http.js';

/** The item id and kind of a path, checked in the order of MCP's `move` and `erase` arguments (id, then kind). */
function drawItem(params: Record<string, string>): { id: string; kind: DrawKind } {
  const id = itemIdParam(params.itemId);
  return { id, kind: parse(DrawKind, params.kind) };
}

export function drawRoutes(app: FastifyInstance, boards: Boards): void {
  const base = '/api/boards/:boardId';
  postMutation(app, boards, `${base}/texts`, TextInput, (w, input) => upsertText(w, input));
  postMutation(app, boards, `${base}/strokes`, StrokeInput, (w, input) => strokeResult(upsertStroke(w, input)));
  postMutation(app, boards, `${base}/lines`, StrokeInput, (w, input) => strokeResult(upsertStroke(w, input)));
  postMutation(app, boards, `${base}/images`, ImageInput, (w, input) => imageResult(upsertImage(w, input)));
  postMutation(app, boards, `${base}/links`, LinkInput, (w, input) => linkResult(upsertLink(w, input)));
  postMutation(app, boards, `${base}/:kind/:itemId/move`, MoveInput, (w, to, item) => moveItem(w, item.kind, item.id, to), drawItem);
  deleteMutation(app, boards, `${base}/:kind/:itemId`, drawItem, (w, item) => eraseItem(w, item.kind, item.id));
}
