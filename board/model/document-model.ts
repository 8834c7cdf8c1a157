/**
 * The layout of a board's Y.Doc (documented in docs/document-model.md): one
 * top-level Y.Map per kind, holding id -> the item as a nested Y.Map of its
 * fields (item-map.ts), so that changes to different fields of one item merge;
 * and `meta`, a map of plain settings.
 */
import type * as Y from 'yjs';
import type {
  Anchors,
  Arrowhead,
  BoardMode,
  CardColorName,
  InkColor,
  Point,
  ShapeFill,
  ShapeKind,
} from '../../schema/index.js';
import { StagedMap } from '../mutations/staged-map.js';
import { ItemMap } from './item-map.js';

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
  arrowhead?: Arrowhead;
  label?: string;
};

export type ShapeItem = Stamp & {
  id: string;
  shape: ShapeKind;
  x: number;
  y: number;
  width: number;
  height: number;
  label?: string;
  color: InkColor;
  fill: ShapeFill;
};

export type FrameItem = Stamp & { id: string; x: number; y: number; width: number; height: number; title?: string };

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

export type ColumnItem = Stamp & { id: string; title: string; sort: number; lane: number; color?: CardColorName };

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
  color?: CardColorName;
  content?: string;
};

export type LaneItem = Stamp & { lane: number; title: string };

/** Board settings: the mode the registry holds (mirrored), the column width, the title (docs/titles.md). */
export type Meta = { mode?: BoardMode; colWidth?: number; title?: string };

export type TextNode = TextItem | LinkItem;

export function isLink(node: TextNode): node is LinkItem {
  return (node as LinkItem).kind === 'link';
}

type MapTypes = {
  texts: TextNode;
  lines: StrokeItem;
  images: ImageItem;
  shapes: ShapeItem;
  frames: FrameItem;
  columns: ColumnItem;
  tasks: TaskItem;
  lanes: LaneItem;
  meta: Meta[keyof Meta];
};
export type MapName = keyof MapTypes;
/** The maps of draw items and of todo items (a board of the other mode holds none of them). */
export const DRAW_MAPS = ['texts', 'lines', 'images', 'shapes', 'frames'] as const;
export const TODO_MAPS = ['columns', 'tasks', 'lanes'] as const;
/** Names of the maps that hold content, in the order snapshots list them. */
export const CONTENT_MAPS = [...DRAW_MAPS, ...TODO_MAPS] as const;
/** Every top-level map of a board document: the one list of their names. */
export const MAP_NAMES: readonly MapName[] = [...CONTENT_MAPS, 'meta'];

export type ContentMapName = (typeof CONTENT_MAPS)[number];

/** The fields people type into, stored as Y.Text so that two people typing in one merge character by character. */
export const TEXT_FIELDS: { [K in ContentMapName]: readonly string[] } = {
  texts: ['content'],
  lines: [],
  images: [],
  shapes: ['label'],
  frames: ['title'],
  columns: ['title'],
  tasks: ['name', 'description', 'content'],
  lanes: ['title'],
};

/** The typed top-level maps of a board document: the items of each kind, and the settings. */
export type BoardMaps = { [K in ContentMapName]: ItemMap<MapTypes[K]> } & { meta: Y.Map<MapTypes['meta']> };

/** A document's maps never change identity: made once per document (each keeps a mirror of its items), not on every write. */
const mapsOf = new WeakMap<Y.Doc, BoardMaps>();

export function boardMaps(doc: Y.Doc): BoardMaps {
  let maps = mapsOf.get(doc);
  if (!maps) {
    const items = <K extends ContentMapName>(name: K) =>
      new ItemMap<MapTypes[K]>(doc.getMap(name), new Set(TEXT_FIELDS[name]));
    maps = {
      texts: items('texts'),
      lines: items('lines'),
      images: items('images'),
      shapes: items('shapes'),
      frames: items('frames'),
      columns: items('columns'),
      tasks: items('tasks'),
      lanes: items('lanes'),
      meta: doc.getMap('meta'),
    };
    mapsOf.set(doc, maps);
  }
  return maps;
}

/** Rewrites a board stored in the former layout (one plain object per item) as nested maps; call inside a Y transaction. */
export function migrateLayout(doc: Y.Doc): boolean {
  const maps = boardMaps(doc);
  let migrated = false;
  for (const name of CONTENT_MAPS) migrated = maps[name].migrate() || migrated;
  return migrated;
}

/** What a write sees of the maps: its own changes staged until commit (see StagedMap). */
export type WriteMaps = { [K in MapName]: StagedMap<MapTypes[K]> };

export function stagedMaps(doc: Y.Doc): WriteMaps {
  const maps = boardMaps(doc);
  // Spelled out rather than built from MAP_NAMES (the type checks that none is missing): no arrays made per write.
  return {
    texts: new StagedMap(maps.texts),
    lines: new StagedMap(maps.lines),
    images: new StagedMap(maps.images),
    shapes: new StagedMap(maps.shapes),
    frames: new StagedMap(maps.frames),
    columns: new StagedMap(maps.columns),
    tasks: new StagedMap(maps.tasks),
    lanes: new StagedMap(maps.lanes),
    meta: new StagedMap(maps.meta),
  };
}

/** Applies every staged change of a write; call inside its Y transaction. */
export function commitMaps(maps: WriteMaps): boolean {
  let changed = false;
  for (const name of MAP_NAMES) {
    if (maps[name].dirty) {
      maps[name].commit();
      changed = true;
    }
  }
  return changed;
}

/** Read access that both a document's maps and a write's staged maps give. */
export type ReadMap<T> = { get(key: string): T | undefined; values(): IterableIterator<T> };
export type ReadMaps = { [K in MapName]: ReadMap<MapTypes[K]> };
