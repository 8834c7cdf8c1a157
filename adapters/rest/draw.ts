/** REST routes of draw items: texts, strokes (alias lines), images, links, moves and erases. */
import type { FastifyInstance } from 'fastify';
import { DRAW_KINDS, type DrawKind, ImageInput, LinkInput, MoveInput, StrokeInput, TextInput } from '../../schema/index.js';
import type { Boards } from '../../server/boards.js';
import { eraseItem, imageResult, moveItem, strokeResult, upsertImage, upsertLink, upsertStroke, upsertText } from '../../server/draw.js';
import { errors } from '../../server/errors.js';
import { boardIdParam, parse } from './http.js';

type BoardParams = { Params: { boardId: string } };
type ItemParams = { Params: { boardId: string; kind: string; itemId: string } };

function drawKind(kind: string): DrawKind {
  if (!(DRAW_KINDS as readonly string[]).includes(kind)) throw errors.unknownKind(kind, DRAW_KINDS);
  return kind as DrawKind;
}

export function drawRoutes(app: FastifyInstance, boards: Boards): void {
  app.post<BoardParams>('/api/boards/:boardId/texts', async (request) => {
    const boardId = boardIdParam(request.params.boardId, 'write');
    const input = parse(TextInput, request.body);
    return boards.write(boardId, 'rest', undefined, (w) => upsertText(w, input));
  });

  for (const path of ['/api/boards/:boardId/strokes', '/api/boards/:boardId/lines']) {
    app.post<BoardParams>(path, async (request) => {
      const boardId = boardIdParam(request.params.boardId, 'write');
      const input = parse(StrokeInput, request.body);
      return boards.write(boardId, 'rest', undefined, (w) => strokeResult(upsertStroke(w, input)));
    });
  }

  app.post<BoardParams>('/api/boards/:boardId/images', async (request) => {
    const boardId = boardIdParam(request.params.boardId, 'write');
    const input = parse(ImageInput, request.body);
    return boards.write(boardId, 'rest', undefined, (w) => imageResult(upsertImage(w, input)));
  });

  app.post<BoardParams>('/api/boards/:boardId/links', async (request) => {
    const boardId = boardIdParam(request.params.boardId, 'write');
    const input = parse(LinkInput, request.body);
    return boards.write(boardId, 'rest', undefined, (w) => {
      const { id, x, y, url, author } = upsertLink(w, input);
      return { id, x, y, url, author, kind: 'link' as const };
    });
  });

  app.post<ItemParams>('/api/boards/:boardId/:kind/:itemId/move', async (request) => {
    const boardId = boardIdParam(request.params.boardId, 'write');
    const kind = drawKind(request.params.kind);
    const to = parse(MoveInput, request.body);
    return boards.write(boardId, 'rest', undefined, (w) => moveItem(w, kind, request.params.itemId, to));
  });

  app.delete<ItemParams>('/api/boards/:boardId/:kind/:itemId', async (request) => {
    const boardId = boardIdParam(request.params.boardId, 'write');
    const kind = drawKind(request.params.kind);
    return boards.write(boardId, 'rest', undefined, (w) => eraseItem(w, kind, request.params.itemId));
  });
}
