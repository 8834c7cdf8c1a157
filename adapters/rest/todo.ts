/** REST routes of todo boards: mode, column width, lanes, columns and tasks. */
import type { FastifyInstance } from 'fastify';
import { ColumnInput, ColumnWidthInput, LaneInput, ModeInput, TaskInput, TaskMoveInput } from '../../schema/index.js';
import type { Boards } from '../../server/boards.js';
import { deleteColumn, deleteTask, moveTask, setColumnWidth, setLane, switchMode, upsertColumn, upsertTask } from '../../server/todo.js';
import { deleteMutation, postMutation } from './http.js';

export function todoRoutes(app: FastifyInstance, boards: Boards): void {
  const base = '/api/boards/:boardId';
  postMutation(app, boards, `${base}/mode`, ModeInput, (w, input) => switchMode(w, input));
  postMutation(app, boards, `${base}/column-width`, ColumnWidthInput, (w, input) => setColumnWidth(w, input.width));
  postMutation(app, boards, `${base}/lanes`, LaneInput, (w, input) => setLane(w, input));
  postMutation(app, boards, `${base}/columns`, ColumnInput, (w, input) => upsertColumn(w, input));
  postMutation(app, boards, `${base}/tasks`, TaskInput, (w, input) => upsertTask(w, input));
  postMutation(app, boards, `${base}/tasks/:itemId/move`, TaskMoveInput, (w, to, params) => moveTask(w, params.itemId, to));
  deleteMutation(app, boards, `${base}/columns/:itemId`, (w, params) => deleteColumn(w, params.itemId));
  deleteMutation(app, boards, `${base}/tasks/:itemId`, (w, params) => deleteTask(w, params.itemId));
}
