/** The parts of the draw canvas that its input handlers work with, gathered in one place by DrawBoard. */
import type { BoardSession } from '../session.js';
import type { Cursors } from './cursors.js';
import type { Editing } from './editing.js';
import type { ItemLayer } from './items.js';
import type { SelectionBox } from './selection-box.js';
import type { Toolbar } from './toolbar.js';
import type { SnapGuides } from './tools/select/snapper.js';
import type { Handles } from './transform.js';
import type { CanvasView, World } from './view.js';

/** What the pointer and keyboard handlers read and drive; built once per board. */
export type DrawContext = {
  session: BoardSession;
  /** The focusable element every pointer event of the canvas arrives on. */
  viewport: HTMLElement;
  /** The rubber band of a drag-select, in screen coordinates over the viewport. */
  rubber: HTMLElement;
  view: CanvasView;
  layer: ItemLayer;
  /** The resize handle of the selected item. */
  handles: Handles;
  /** The guide lines of a drag that snaps to other items. */
  guides: SnapGuides;
  /** The one box of a multi-selection, with its corner handles. */
  box: SelectionBox;
  toolbar: Toolbar;
  editing: Editing;
  cursors: Cursors;
  /** False for an embed or a read-only board: then the canvas can only be looked around. */
  editable: () => boolean;
  /** A board shown in another page: looked at only, without the app's own menus. */
  embed: boolean;
  /** What the keyboard knows that a press needs, and the other way round. */
  input: {
    spaceDown: boolean;
    hovered: string | null;
    /** Where the context menu was last opened, in world pixels: its Paste lands there. */
    menuAt: World | null;
  };
  /** Opens the context menu at a screen point (a right-click, a long press), for what lies under it; `focus`: into it. */
  openMenu: (at: { x: number; y: number }, focus?: boolean) => void;
};
