/** The draw toolbar: the current tool and ink colour, and buttons for images, delete, undo and zoom. */
import { INK_COLORS, INK_HEX, type InkColor } from '../../../schema/index.js';
import { h } from '../ui.js';
import { toolbarMenu } from './menu.js';
import { TOOLS, type ToolName } from './tools/names.js';

/** What a press on the canvas does: the tools, in toolbar order, with the key that picks each (tools/names.ts). */
export type Tool = ToolName;
export { TOOLS };

/**
 * The tools a phone's one-row toolbar keeps in view (600 px wide or less), with
 * Undo and Redo; the others, the colours and the buttons are behind its More
 * button. Hand is among the others: on a touch screen one finger on empty
 * canvas pans with Select, and two fingers pan with any tool.
 */
const PHONE_TOOLS: ReadonlySet<Tool> = new Set(['select', 'pen', 'text']);

/** The ink palette's grid width (styles.css, draw colour palette): 16 inks in two rows. */
const PALETTE_COLUMNS = 8;

/** How a swatch paints an ink: `auto` is the theme's ink. */
const swatchCss = (color: InkColor) => (color === 'auto' ? 'var(--ink)' : INK_HEX[color]);

const SVG = 'http://www.w3.org/2000/svg';

/** A tool's outline icon (tools/names.ts), in the button's text colour. */
function toolIcon(path: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg'); // not render.ts's: the help's tests import this file without a page
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('tool-icon');
  const outline = svg.appendChild(document.createElementNS(SVG, 'path'));
  outline.setAttribute('d', path);
  return svg;
}

/** The canvas actions (actions/draw.ts) the toolbar has a button for. */
export type ToolbarAction = 'undo' | 'redo' | 'delete' | 'zoom-in' | 'zoom-out' | 'fit' | 'zoom-100' | 'zoom-selection';

/** What the toolbar's buttons do beyond picking a tool or colour; the toolbar itself writes nothing. */
export type ToolbarActions = {
  /** A colour was picked (it may recolour the selection). */
  colorPicked: (color: InkColor) => void;
  upload: (files: File[]) => void;
  /** The action behind a button or a menu entry: what it does, the key its tooltip names, and whether it can be done now. */
  action: (name: ToolbarAction) => { label: string; shortcut?: string; perform: () => void; enabled?: () => boolean };
};

/** Holds the current tool and colour and shows them as the pressed buttons. */
export class Toolbar {
  readonly element: HTMLElement;
  private current: Tool = 'select';
  private ink: InkColor = 'auto';
  private moreButton!: HTMLButtonElement;
  private inkButton!: HTMLButtonElement;
  private shapeButton!: HTMLButtonElement;
  private palette!: HTMLElement;
  private zoomLabel?: HTMLElement;

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
    for (const button of this.element.querySelectorAll<HTMLElement>('[data-tool]'))
      button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
    this.viewport.dataset.tool = tool;
    const grouped = this.element.querySelector<HTMLElement>(`[data-group][data-tool="${tool}"]`);
    if (grouped) this.showShape(grouped);
    this.shapeButton.setAttribute('aria-pressed', String(grouped !== null));
    this.moreButton.classList.toggle('holds-tool', !PHONE_TOOLS.has(tool)); // a phone shows that the tool in use is in the menu
  }

  private pickColor(color: InkColor): void {
    this.ink = color;
    for (const button of this.element.querySelectorAll<HTMLElement>('[data-color]'))
      button.setAttribute('aria-pressed', String(button.dataset.color === color));
    this.showInk();
    if (this.palette.matches(':popover-open')) {
      this.palette.hidePopover();
      this.inkButton.focus();
    }
    this.actions.colorPicked(color);
  }

  /** The colour button shows the current ink as a filled circle and names it. */
  private showInk(): void {
    this.inkButton.style.setProperty('--swatch', swatchCss(this.ink));
    this.inkButton.title = `Colour: ${this.ink}`;
    this.inkButton.setAttribute('aria-label', this.inkButton.title);
  }

  /**
   * The ink palette, tldraw's and Excalidraw's habit: one button showing the
   * current ink opens a grid of every ink, as a popover (the platform's light
   * dismiss and Escape). Arrow keys move in the grid, Enter or a click picks.
   * Its keys stay in it: the canvas's keys (actions/draw.ts, on the document) would
   * nudge the selection, start editing it or clear it. On a phone the grid is
   * shown inside the More menu instead (styles.css, draw colour palette).
   */
  private buildPalette(swatches: HTMLElement[]): HTMLElement {
    this.palette = h(
      'div.ink-palette',
      { id: 'ink-palette', popover: 'auto', role: 'group', 'aria-label': 'Colours' },
      ...swatches,
    );
    this.inkButton = h(
      'button.ink-button',
      { type: 'button', popovertarget: 'ink-palette', 'data-testid': 'ink-button' },
      h('span.ink-dot', { 'aria-hidden': 'true' }),
    );
    this.showInk();
    this.palette.addEventListener('toggle', (event) => {
      if ((event as ToggleEvent).newState === 'open')
        swatches.find((swatch) => swatch.dataset.color === this.ink)?.focus();
    });
    const wrapper = h('span.ink', {}, this.inkButton, this.palette);
    wrapper.addEventListener('keydown', (event) => {
      const open = this.palette.matches(':popover-open');
      // Escape with the grid shown in a phone's More menu closes that menu (build's handler on the toolbar).
      if (event.key === 'Escape' ? open : event.target !== this.inkButton || event.key === 'Enter' || event.key === ' ')
        event.stopPropagation();
      const at = swatches.indexOf(event.target as HTMLElement);
      const step: Record<string, number> = {
        ArrowLeft: -1,
        ArrowRight: 1,
        ArrowUp: -PALETTE_COLUMNS,
        ArrowDown: PALETTE_COLUMNS,
        Home: -swatches.length,
        End: swatches.length,
      };
      if (at < 0 || !(event.key in step)) return;
      event.preventDefault();
      swatches[Math.min(swatches.length - 1, Math.max(0, at + step[event.key]))].focus();
    });
    return wrapper;
  }

  private build(): HTMLElement {
    const { actions } = this;
    /** A button for a canvas action: its tooltip names the action's key. */
    const button = (tag: `button${string}`, name: ToolbarAction, title: string, text: string, label?: string) => {
      const { shortcut, perform } = actions.action(name);
      return h(
        tag as 'button',
        {
          type: 'button',
          title: shortcut ? `${title} (${shortcut})` : title,
          'aria-label': label,
          onclick: () => perform(),
        },
        text,
      );
    };
    // `order` keeps TOOLS order on a wide screen, where the More group is `display: contents` (styles.css, phone toolbar).
    const tools = TOOLS.map(({ tool, label, key, icon, group }, index) =>
      h(
        PHONE_TOOLS.has(tool) ? 'button.tool.phone' : 'button.tool',
        {
          type: 'button',
          'data-tool': tool,
          'data-group': group,
          title: `${label} (${key.toUpperCase()})`,
          'aria-pressed': String(tool === this.current),
          style: `order: ${index}`,
          onclick: () => {
            this.setTool(tool);
            this.showMore(false);
          },
        },
        ...(icon ? [toolIcon(icon)] : []),
        // A grouped tool's menu entry names it beside its icon; the group's button shows the icon alone (styles.css).
        icon && !group ? '' : label,
      ),
    );
    const swatches = INK_COLORS.filter((c) => c !== 'black').map((color) =>
      h('button.swatch', {
        type: 'button',
        'data-color': color,
        title: color,
        'aria-label': `colour ${color}`,
        style: `--swatch: ${swatchCss(color)}`,
        'aria-pressed': String(color === this.ink),
        onclick: () => this.pickColor(color),
      }),
    );
    const file = h('input', {
      type: 'file',
      accept: 'image/png,image/jpeg,image/gif,image/webp,image/svg+xml',
      hidden: true,
      onchange: () => actions.upload([...(file.files ?? [])]),
    });
    const more = h(
      'div.toolbar-more',
      { id: 'toolbar-more' },
      ...tools.filter((button) => !button.classList.contains('phone') && !button.dataset.group),
      this.buildShapeMenu(tools.filter((button) => button.dataset.group === 'shapes')),
      h('span.sep'),
      this.buildPalette(swatches),
      h('span.sep'),
      h('button', { type: 'button', title: 'Add an image', onclick: () => file.click() }, 'Image'),
      file,
      button('button', 'delete', 'Delete the selection', 'Delete'),
      h('span.sep'),
      h('span.sep.zoom'),
      button('button.zoom', 'zoom-out', 'Zoom out', '−', 'Zoom out'),
      this.buildZoomMenu(),
      button('button.zoom', 'zoom-in', 'Zoom in', '+', 'Zoom in'),
    );
    // In the row on a phone too (an arrow each there); on a wide screen `order` puts them between Delete and the zoom (styles.css).
    const undo = button('button.undo', 'undo', 'Undo', 'Undo', 'Undo');
    const redo = button('button.redo', 'redo', 'Redo', 'Redo', 'Redo');
    this.moreButton = h(
      'button.more-toggle',
      {
        type: 'button',
        'aria-expanded': 'false',
        'aria-controls': 'toolbar-more',
        title: 'More tools, colours and actions',
        'data-testid': 'toolbar-more',
        onclick: () => this.showMore(this.moreButton.getAttribute('aria-expanded') !== 'true'),
      },
      'More',
    );
    const toolbar = h(
      'div.toolbar',
      { role: 'toolbar', 'aria-label': 'Drawing tools' },
      ...tools.filter((button) => button.classList.contains('phone')),
      this.moreButton,
      more,
      undo,
      redo,
    );
    // The open menu closes on Escape and on a press outside the toolbar.
    toolbar.addEventListener('keydown', (event) => event.key === 'Escape' && this.showMore(false));
    const outside = (event: PointerEvent) => {
      if (!toolbar.isConnected)
        document.removeEventListener('pointerdown', outside); // the board was closed
      else if (!toolbar.contains(event.target as Node)) this.showMore(false);
    };
    document.addEventListener('pointerdown', outside);
    return toolbar;
  }

  /**
   * The shape tools under one button showing the last one picked (tldraw's habit), with a menu of them all: a popover
   * like the ink palette's. On a phone the menu's buttons sit in the More menu with the other tools (styles.css).
   */
  private buildShapeMenu(buttons: HTMLElement[]): HTMLElement {
    const menu = h(
      'div.shape-menu',
      { id: 'shape-menu', popover: 'auto', role: 'group', 'aria-label': 'Shapes' },
      ...buttons,
    );
    this.shapeButton = h('button.shape-button', {
      type: 'button',
      popovertarget: 'shape-menu',
      'data-testid': 'shape-button',
    });
    this.showShape(buttons[0]);
    for (const button of buttons)
      button.addEventListener('click', () => menu.matches(':popover-open') && menu.hidePopover());
    return h('span.shape-tools', { style: buttons[0]?.style.cssText ?? '' }, this.shapeButton, menu);
  }

  /** The shapes' button shows the icon of `button`'s tool, and is pressed while one of them is the tool. */
  private showShape(button: HTMLElement | undefined): void {
    if (!button) return;
    const icon = button.querySelector('svg')?.cloneNode(true);
    this.shapeButton.replaceChildren(...(icon ? [icon] : []));
    const label = `Shapes: ${button.textContent}`;
    this.shapeButton.title = `${label} (${TOOLS.filter((t) => t.group)
      .map((t) => t.key.toUpperCase())
      .join(', ')})`;
    this.shapeButton.setAttribute('aria-label', label);
  }

  /** The zoom as a percentage, and a menu of the ways to set it. */
  private buildZoomMenu(): HTMLElement {
    const entry = (name: ToolbarAction, label?: string) => {
      const action = this.actions.action(name);
      return { ...action, label: label ?? action.label, data: { 'data-zoom': name } };
    };
    this.zoomLabel = h('summary', { title: 'Zoom: fit, 100%, to the selection', 'aria-label': 'Zoom 100%' }, '100%');
    return toolbarMenu('zoom-menu.zoom', this.zoomLabel, [
      entry('zoom-in', 'Zoom in'),
      entry('zoom-out'),
      entry('fit', 'Zoom to fit'),
      entry('zoom-100'),
      entry('zoom-selection'),
    ]).menu;
  }

  /** Shows the view's scale (1 is 100%). */
  showZoom(scale: number): void {
    if (!this.zoomLabel) return;
    const percent = `${Math.round(scale * 100)}%`;
    this.zoomLabel.textContent = percent;
    // Named by what it shows, and for what it is (axe: the visible text is part of the name).
    this.zoomLabel.setAttribute('aria-label', `Zoom ${percent}`);
  }

  /** Opens or closes the phone toolbar's More menu (on a wide screen everything shows anyway). */
  private showMore(open: boolean): void {
    this.moreButton.setAttribute('aria-expanded', String(open));
    this.element?.classList.toggle('open', open);
  }
}
