/**
 * The board resources: `svc://board/{id}/state.json` (the snapshot without
 * image payloads), `svc://board/{id}/preview.svg` and `svc://board/{id}/tasks.json`
 * (`{mode, columns, tasks, lanes, colWidth}`). state.json and tasks.json are
 * subscribable.
 */
import type { ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { isUuid } from '../../schema/index.js';
import type { Caller } from '../../server/host/access.js';
import type { Boards } from '../../server/host/boards.js';
import { errors } from '../../server/board/errors.js';
import { previewSvg } from '../../server/board/preview.js';
import { jsonSnapshot, tasksView } from '../../server/board/snapshot.js';

export type ResourceName = 'state.json' | 'preview.svg' | 'tasks.json';
export const SUBSCRIBABLE: ReadonlySet<ResourceName> = new Set(['state.json', 'tasks.json']);

export const stateUri = (boardId: string) => `svc://board/${boardId}/state.json`;

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'svc://board/{id}/state.json',
    name: 'board-state',
    title: 'Board snapshot',
    description: 'The board snapshot ({boardId, mode, etag, texts, lines, images} plus the kanban on todo boards), image payloads elided. Subscribable.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'svc://board/{id}/preview.svg',
    name: 'board-preview',
    title: 'Board preview',
    description: 'A schematic SVG of the board.',
    mimeType: 'image/svg+xml',
  },
  {
    uriTemplate: 'svc://board/{id}/tasks.json',
    name: 'board-tasks',
    title: 'Board tasks',
    description: '{mode, columns, tasks, lanes, colWidth} of the board. Subscribable.',
    mimeType: 'application/json',
  },
];

const URI = /^svc:\/\/board\/([^/]+)\/(state\.json|preview\.svg|tasks\.json)$/;

/** Splits a board resource URI, or throws invalid params. */
export function parseUri(uri: string): { boardId: string; name: ResourceName } {
  const match = URI.exec(uri);
  if (!match) throw errors.invalidPayload('uri', 'must be svc://board/{id}/state.json, preview.svg or tasks.json');
  if (!isUuid(match[1])) throw errors.boardNotFound();
  return { boardId: match[1].toLowerCase(), name: match[2] as ResourceName };
}

export async function readResource(boards: Boards, uri: string, caller: Caller): Promise<ReadResourceResult> {
  const { boardId, name } = parseUri(uri);
  return boards.read(boardId, caller, (doc, record) => {
    switch (name) {
      case 'state.json':
        return { contents: [{ uri, mimeType: 'application/json', text: jsonSnapshot(doc, record.id, record.mode) }] };
      case 'tasks.json':
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(tasksView(doc, record.mode)) }] };
      case 'preview.svg':
        return { contents: [{ uri, mimeType: 'image/svg+xml', text: previewSvg(doc, record.mode) }] };
    }
  });
}
