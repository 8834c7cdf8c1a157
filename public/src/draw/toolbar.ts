/** The draw toolbar: the current tool and ink colour, and buttons for images, delete, undo and zoom. */
import { INK_COLORS, INK_HEX, type InkColor } from '../../../schema/index.js';
import { h } from '../ui.js';

/** What a press on the canvas does. */
export type Tool = 'select' | 'hand' | 'text' | 'postit' | 'diagram' | 'pen' | 'arrow' | 'eraser' | 'link';

/** The tools in toolbar order, with the key that picks each. */
export const TOOLS: { tool: Tool; label: string; key: string }[] = [
  { tool: 'select', label: 'Select', key: 'v' },
  { tool: 'hand', label: 'Hand', key: 'h' },
  { tool: 'text', label: 'Text', key: 't' },
  { tool: 'postit', label: 'Post-it', key: 'n' },
  { tool: 'diagram', label: 'Frame', key: 'f' },
  { tool: 'pen', label: 'Pen', key: 'p' },
  { tool: 'arrow', label: 'Arrow', key: 'a' },
  { tool: 'eraser', label: 'Eraser', key: 'e' },
  { tool: 'link', label: 'Link', key: 'l' },
];

/**
 * The tools a phone's one-row toolbar keeps in view (600 px wide or less); the
 * others, the colours and the buttons are behind its More button.
 */
const PHONE_TOOLS: ReadonlySet<Tool> = new Set(['select', 'hand', 'pen', 'text']);

/** What the toolbar's buttons do beyond picking a tool or colour; the toolbar itself writes nothing. */
export type ToolbarActions = {
  /** A colour was picked (it may recolour the selection). */
  colorPicked: (color: InkColor) => void;
  upload: (files: File[]) => void;
  deleteSelection: () => void;
  undo: () => void;
  redo: () => void;
  zoomIn: () => void;
  zoomOut: () => void;
  fit: () => void;
};

/** Holds the current tool and colour and shows them as the pressed buttons. */
export class Toolbar {
  readonly element: HTMLElement;
  private current: Tool = 'select';
  private ink: InkColor = 'auto';
  private moreButton!: HTMLButtonElement;

  /** `viewport` carries the tool as `data-tool`, for its cursor. */
  constructor(
    private readonly viewport: HTMLElement,
    private readonly actions: ToolbarActions,
  ) {
    this.element = this.build();
  }

  get tool(): Tool {
    return this.current;
  }

  get color(): InkColor {
    return this.ink;
  }

  setTool(tool: Tool): void {
    this.current = tool;
    for (const button of this.element.querySelectorAll<HTMLElement>('[data-tool]')) button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
    this.viewport.dataset.tool = tool;
    this.moreButton.classList.toggle('holds-tool', !PHONE_TOOLS.has(tool)); // a phone shows that the tool in use is in the menu
  }

  private pickColor(color: InkColor): void {
    this.ink = color;
    for (const button of this.element.querySelectorAll<HTMLElement>('[data-color]')) button.setAttribute('aria-pressed', String(button.dataset.color === color));
    this.actions.colorPicked(color);
  }

  private build(): HTMLElement {
    const { actions } = this;
    // `order` keeps TOOLS order on a wide screen, where the More group is `display: contents` (styles.css, phone toolbar).
    const tools = TOOLS.map(({ tool, label, key }, index) =>
      h(PHONE_TOOLS.has(tool) ? 'button.tool.phone' : 'button.tool', { type: 'button', 'data-tool': tool, title: `${label} (${key.toUpperCase()})`, 'aria-pressed': String(tool === this.current), style: `order: ${index}`, onclick: () => {
        this.setTool(tool);
        this.showMore(false);
      } }, label),
    );
    const swatches = INK_COLORS.filter((c) => c !== 'black').map((color) =>
      h('button.swatch', { type: 'button', 'data-color': color, title: color, 'aria-label': `colour ${color}`, style: `--swatch: ${color === 'auto' ? 'var(--ink)' : INK_HEX[color]}`, 'aria-pressed': String(color === this.ink), onclick: () => this.pickColor(color) }),
    );
    const file = h('input', { type: 'file', accept: 'image/png,image/jpeg,image/gif,image/webp,image/svg+xml', hidden: true, onchange: () => actions.upload([...(file.files ?? [])]) });
    const more = h('div.toolbar-more', { id: 'toolbar-more' },
      ...tools.filter((button) => !button.classList.contains('phone')),
      h('span.sep'),
      ...swatches,
      h('span.sep'),
      h('button', { type: 'button', title: 'Add an image', onclick: () => file.click() }, 'Image'),
      file,
      h('button', { type: 'button', title: 'Delete the selection (Del)', onclick: () => actions.deleteSelection() }, 'Delete'),
      h('span.sep'),
      h('button', { type: 'button', title: 'Undo (Ctrl+Z)', onclick: () => actions.undo() }, 'Undo'),
      h('button', { type: 'button', title: 'Redo (Ctrl+Shift+Z)', onclick: () => actions.redo() }, 'Redo'),
      h('span.sep'),
      h('button', { type: 'button', title: 'Zoom out (-)', 'aria-label': 'Zoom out', onclick: () => actions.zoomOut() }, '−'),
      h('button', { type: 'button', title: 'Fit the board (0)', onclick: () => actions.fit() }, 'Fit'),
      h('button', { type: 'button', title: 'Zoom in (+)', 'aria-label': 'Zoom in', onclick: () => actions.zoomIn() }, '+'),
    );
    this.moreButton = h('button.more-toggle', { type: 'button', 'aria-expanded': 'false', 'aria-controls': 'toolbar-more', title: 'More tools, colours and actions', 'data-testid': 'toolbar-more', onclick: () => this.showMore(this.moreButton.getAttribute('aria-expanded') !== 'true') }, 'More');
    const toolbar = h('div.toolbar', { role: 'toolbar', 'aria-label': 'Drawing tools' }, ...tools.filter((button) => button.classList.contains('phone')), this.moreButton, more);
    // The open menu closes on Escape and on a press outside the toolbar.
    toolbar.addEventListener('keydown', (event) => event.key === 'Escape' && this.showMore(false));
    const outside = (event: PointerEvent) => {
      if (!toolbar.isConnected) document.removeEventListener('pointerdown', outside); // the board was closed
      else if (!toolbar.contains(event.target as Node)) this.showMore(false);
    };
    document.addEventListener('pointerdown', outside);
    return toolbar;
  }

  /** Opens or closes the phone toolbar's More menu (on a wide screen everything shows anyway). */
  private showMore(open: boolean): void {
    this.moreButton.setAttribute('aria-expanded', String(open));
    this.element?.classList.toggle('open', open);
  }
}
