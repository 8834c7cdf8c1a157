/** REST routes of draw items: texts, strokes (alias lines), images, links, moves and erases. */
import type { FastifyInstance } from 'fastify';
import { DRAW_KINDS, type DrawKind, ImageInput, LinkInput, MoveInput, StrokeInput, TextInput } from '../../schema/index.js';
import type { Boards } from '../../server/boards.js';
import { eraseItem, imageResult, linkResult, moveItem, strokeResult, upsertImage, upsertLink, upsertStroke, upsertText } from '../../server/draw.js';
import { errors } from '../../server/errors.js';
import { deleteMutation, postMutation } from './http.js';

function drawKind(kind: string): DrawKind {
  if (!(DRAW_KINDS as readonly string[]).includes(kind)) throw errors.unknownKind(kind, DRAW_KINDS);
  return kind as DrawKind;
}

export function drawRoutes(app: FastifyInstance, boards: Boards): void {
  const base = '/api/boards/:boardId';
  postMutation(app, boards, `${base}/texts`, TextInput, (w, input) => upsertText(w, input));
  postMutation(app, boards, `${base}/strokes`, StrokeInput, (w, input) => strokeResult(upsertStroke(w, input)));
  postMutation(app, boards, `${base}/lines`, StrokeInput, (w, input) => strokeResult(upsertStroke(w, input)));
  postMutation(app, boards, `${base}/images`, ImageInput, (w, input) => imageResult(upsertImage(w, input)));
  postMutation(app, boards, `${base}/links`, LinkInput, (w, input) => linkResult(upsertLink(w, input)));
  postMutation(app, boards, `${base}/:kind/:itemId/move`, MoveInput, (w, to, params) => moveItem(w, drawKind(params.kind), params.itemId, to));
  deleteMutation(app, boards, `${base}/:kind/:itemId`, (w, params) => eraseItem(w, drawKind(params.kind), params.itemId));
}
