/**
 * The board resources: `svc://board/{id}/state.json` (the snapshot without
 * image payloads), `svc://board/{id}/preview.svg`, `svc://board/{id}/tasks.json`
 * (`{mode, columns, tasks, lanes, colWidth}`) and
 * `svc://board/{id}/versions/{version}/state.json` (the snapshot at a stored
 * version, history.md). state.json and tasks.json are subscribable; a
 * version never changes, so there is nothing to hear of it.
 */
import type {
  ReadResourceResult,
  ResourceLink,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/server';
import { errors } from '../../board/model/errors.js';
import { jsonSnapshot, tasksView } from '../../board/reads/snapshot.js';
import type { Caller } from '../../host/access/access.js';
import type { Boards } from '../../host/boards/boards.js';
import { ItemId, isUuid, isViewToken, VersionNumber } from '../../schema/index.js';

export type ResourceName = 'state.json' | 'preview.svg' | 'tasks.json' | 'versions/{version}/state.json';
export const SUBSCRIBABLE: ReadonlySet<ResourceName> = new Set(['state.json', 'tasks.json']);

export const stateUri = (boardId: string) => `svc://board/${boardId}/state.json`;
export const tasksUri = (boardId: string) => `svc://board/${boardId}/tasks.json`;

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'svc://board/{id}/state.json',
    name: 'board-state',
    title: 'Board snapshot',
    description:
      'The board snapshot ({boardId, mode, etag, texts, lines, images} plus the kanban on todo boards), image payloads elided. Subscribable.',
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
  {
    uriTemplate: 'svc://board/{id}/versions/{version}/state.json',
    name: 'board-version-state',
    title: 'Board snapshot at a version',
    description:
      'The board snapshot as it was at a version (see list_versions), plus version and at; image payloads elided. A version never changes.',
    mimeType: 'application/json',
  },
];

/** The templates with one resource per board (resources/list names them for every board the session used). */
export const PER_BOARD_TEMPLATES = RESOURCE_TEMPLATES.filter((template) => !template.uriTemplate.includes('{version}'));

/** A board's resources as resource_link blocks (a tool result's content) or, without `type`, as resources/list entries. */
export function boardResourceLinks(boardId: string, templates: readonly ResourceTemplate[]): ResourceLink[] {
  return templates.map((template) => ({
    type: 'resource_link',
    uri: template.uriTemplate.replace('{id}', boardId),
    name: `${template.name}-${boardId}`,
    title: template.title,
    description: template.description,
    mimeType: template.mimeType,
  }));
}

/** A board's resources as a tool result names them: uri, name, title and type; what each holds, resources/templates/list says once. */
export const boardLinkBlocks = (boardId: string): ResourceLink[] =>
  boardResourceLinks(boardId, PER_BOARD_TEMPLATES).map(({ description: _description, ...link }) => link);

// preview.svg may name one frame (`?frame={id}`), as get_preview's answer links a frame's preview.
const URI =
  /^svc:\/\/board\/([^/]+)\/(?:(state\.json|tasks\.json)|(preview\.svg)(?:\?frame=([^&#]+))?|versions\/([^/]*)\/state\.json)$/;

/** Splits a board resource URI, or throws invalid params. */
export function parseUri(uri: string): { boardId: string; name: ResourceName; version?: number; frame?: string } {
  const match = URI.exec(uri);
  if (!match)
    throw errors.invalidPayload(
      'uri',
      'must be svc://board/{id}/state.json, preview.svg, tasks.json or versions/{version}/state.json',
    );
  // A view token names the board as well as its id does, for reading (docs/sharing.md).
  if (!isUuid(match[1]) && !isViewToken(match[1])) throw errors.boardNotFound();
  const boardId = isViewToken(match[1]) ? match[1] : match[1].toLowerCase();
  if (match[2] !== undefined) return { boardId, name: match[2] as ResourceName };
  if (match[3] !== undefined) return { boardId, name: 'preview.svg', ...(match[4] && { frame: frameOf(match[4]) }) };
  // The version is checked as REST checks its path segment: the same validator, the same refusals.
  const version = VersionNumber.safeParse(match[5]);
  if (!version.success) throw errors.invalidPayload('version', version.error.issues[0].message);
  return { boardId, name: 'versions/{version}/state.json', version: version.data };
}

/** A frame id from a preview URI's query, checked as get_preview's `frame` argument is. */
function frameOf(raw: string): string {
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    throw errors.invalidPayload('frame', 'is not a percent-encoded id');
  }
  const frame = ItemId.safeParse(id);
  if (!frame.success) throw errors.invalidPayload('frame', frame.error.issues[0].message);
  return frame.data;
}

/** The URI of a board's preview, or of one frame's. */
export const previewUri = (boardId: string, frame?: string) =>
  `svc://board/${boardId}/preview.svg${frame === undefined ? '' : `?frame=${encodeURIComponent(frame)}`}`;

export async function readResource(boards: Boards, uri: string, caller: Caller): Promise<ReadResourceResult> {
  const { boardId, name, version, frame } = parseUri(uri);
  if (version !== undefined) {
    // A history read: the lock rules of any read (history.md), applied by Boards.history.
    const { board } = await boards.history.version(boardId, caller, version);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(board) }] };
  }
  if (name === 'preview.svg') {
    const { svg } = await boards.preview(boardId, caller, { frame });
    return { contents: [{ uri, mimeType: 'image/svg+xml', text: svg }] };
  }
  return boards.read(boardId, caller, (doc, record) => {
    switch (name) {
      case 'state.json':
        return { contents: [{ uri, mimeType: 'application/json', text: jsonSnapshot(doc, record.id, record.mode) }] };
      case 'tasks.json':
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(tasksView(doc, record.mode)) }] };
      case 'versions/{version}/state.json':
        throw new Error('unreachable: a version is read from the history above');
    }
  });
}
