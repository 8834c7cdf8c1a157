/** The draw tools, in toolbar order, with the key that picks each: what the toolbar, the keys and the help list (index.ts holds what each does). */
export type ToolName =
  | 'select'
  | 'hand'
  | 'text'
  | 'postit'
  | 'diagram'
  | 'rectangle'
  | 'ellipse'
  | 'diamond'
  | 'frame'
  | 'pen'
  | 'arrow'
  | 'eraser'
  | 'link';

/** The shape tools: each draws the shape of its name (tools/shape). */
export type ShapeToolName = 'rectangle' | 'ellipse' | 'diamond';

/**
 * `icon`: an outline (an SVG path on a 24 px square) the button shows beside or instead of its label.
 * `group`: the toolbar holds these under one button and its menu, as tldraw holds its geometric shapes, so the 1280 px
 * toolbar stays one row. F is the shapes extension's Frame (a titled area, as in tldraw and Excalidraw); the framed text,
 * which had F, took B (a box with words).
 */
export const TOOLS: readonly { tool: ToolName; label: string; key: string; icon?: string; group?: 'shapes' }[] = [
  { tool: 'select', label: 'Select', key: 'v' },
  { tool: 'hand', label: 'Hand', key: 'h' },
  { tool: 'text', label: 'Text', key: 't' },
  { tool: 'postit', label: 'Post-it', key: 'n' },
  { tool: 'rectangle', label: 'Rectangle', key: 'r', icon: 'M3,5 H21 V19 H3 Z', group: 'shapes' },
  { tool: 'ellipse', label: 'Ellipse', key: 'o', icon: 'M2,12 A10,7 0 1 0 22,12 A10,7 0 1 0 2,12 Z', group: 'shapes' },
  { tool: 'diamond', label: 'Diamond', key: 'd', icon: 'M12,2 L22,12 L12,22 L2,12 Z', group: 'shapes' },
  { tool: 'diagram', label: 'Framed text', key: 'b', icon: 'M3,5 H21 V19 H3 Z M7,10 H17 M7,14 H14', group: 'shapes' },
  { tool: 'frame', label: 'Frame', key: 'f' },
  { tool: 'pen', label: 'Pen', key: 'p' },
  { tool: 'arrow', label: 'Arrow', key: 'a' },
  { tool: 'eraser', label: 'Eraser', key: 'e' },
  { tool: 'link', label: 'Link', key: 'l' },
];
