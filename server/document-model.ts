/**
 * The layout of a board's Y.Doc (documented in docs/document-model.md): one
 * top-level Y.Map per kind, holding id -> plain JSON item. A whole item is
 * replaced on every change, which merges per item and costs far less memory
 * than a nested Y.Map per item.
 */
import * as Y from 'yjs';
import type { Anchors, BoardMode, InkColor, Point } from '../schema/index.js';

type Stamp = { author: string; last_updated: string };

export type TextItem = Stamp & {
  id: string;
  x: number;
  y: number;
  content: string;
  color?: InkColor;
  width?: number;
  postit?: boolean;
  diagram?: boolean;
};

/** Links live in the texts map (they count as text nodes and appear in `texts` of every snapshot). */
export type LinkItem = Stamp & { id: string; kind: 'link'; x: number; y: number; url: string };

export type StrokeItem = Stamp & {
  id: string;
  points: Point[];
  color: InkColor;
  width: number;
  anchors?: Anchors;
};

/** The image payload is in the blob store under `blob`; the document keeps what a layout needs. */
export type ImageItem = Stamp & {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  blob: string;
  mime: string;
  bytes: number;
  thumbDataUrl?: string;
};

export type ColumnItem = Stamp & { id: string; title: string; sort: number; lane: number; color?: string };

export type TaskItem = Stamp & {
  id: string;
  column_id: string;
  name: string;
  description?: string;
  due_date?: string;
  priority?: 'H' | 'M' | 'L';
  assignee?: string;
  sort: number;
  done: boolean;
  color?: string;
  content?: string;
};

export type LaneItem = Stamp & { lane: number; title: string };

export type Meta = { mode?: BoardMode; colWidth?: number };

export type TextNode = TextItem | LinkItem;

export function isLink(node: TextNode): node is LinkItem {
  return (node as LinkItem).kind === 'link';
}

/** The typed top-level maps of a board document. */
export function boardMaps(doc: Y.Doc) {
  return {
    texts: doc.getMap<TextNode>('texts'),
    lines: doc.getMap<StrokeItem>('lines'),
    images: doc.getMap<ImageItem>('images'),
    columns: doc.getMap<ColumnItem>('columns'),
    tasks: doc.getMap<TaskItem>('tasks'),
    lanes: doc.getMap<LaneItem>('lanes'),
    meta: doc.getMap<Meta[keyof Meta]>('meta'),
  };
}
export type BoardMaps = ReturnType<typeof boardMaps>;

/** Names of the maps that hold content, in the order snapshots list them. */
export const CONTENT_MAPS = ['texts', 'lines', 'images', 'columns', 'tasks', 'lanes'] as const;
