/** REST routes of todo boards: mode, column width, lanes, columns and tasks. */
import type { FastifyInstance } from 'fastify';
import { ColumnInput, ColumnWidthInput, LaneInput, ModeInput, TaskInput, TaskMoveInput } from '../../schema/index.js';
import type { Boards } from '../../server/host/boards.js';
import { deleteColumn, deleteTask, moveTask, setColumnWidth, setLane, switchMode, upsertColumn, upsertTask } from '../../server/board/todo.js';
import { deleteMutation, itemIdParam, postMutation } from './http.js';

const pathItemId = (params: Record<string, string>) => itemIdParam(params.itemId);

export function todoRoutes(app: FastifyInstance, boards: Boards): void {
  const base = '/api/boards/:boardId';
  postMutation(app, boards, `${base}/mode`, ModeInput, (w, input) => switchMode(w, input));
  postMutation(app, boards, `${base}/column-width`, ColumnWidthInput, (w, input) => setColumnWidth(w, input.width));
  postMutation(app, boards, `${base}/lanes`, LaneInput, (w, input) => setLane(w, input));
  postMutation(app, boards, `${base}/columns`, ColumnInput, (w, input) => upsertColumn(w, input));
  postMutation(app, boards, `${base}/tasks`, TaskInput, (w, input) => upsertTask(w, input));
  postMutation(app, boards, `${base}/tasks/:itemId/move`, TaskMoveInput, (w, to, id) => moveTask(w, id, to), pathItemId);
  deleteMutation(app, boards, `${base}/columns/:itemId`, pathItemId, (w, id) => deleteColumn(w, id));
  deleteMutation(app, boards, `${base}/tasks/:itemId`, pathItemId, (w, id) => deleteTask(w, id));
}
