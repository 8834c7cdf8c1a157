/**
 * The arrange bar: align and distribute buttons at the foot of the canvas
 * while two or more items are selected, so that a mouse or a finger reaches
 * what Alt+A and the rest do. Its buttons are the registry's actions
 * (actions/arrange.ts): their words, keys and whether they can be done now.
 */
import { h, setHidden } from '../ui.js';
import { svgElement } from './render.js';

/** One button: an action's name, words and key, what it does, and whether it can be done now. */
export type BarAction = {
  name: string;
  label: string;
  shortcut?: string;
  perform: () => void;
  enabled: () => boolean;
};

/** Each action's icon, as rectangles [x, y, width, height] on a 20 px square: a line and the boxes on it. */
const ICONS: Record<string, [number, number, number, number][]> = {
  'align-left': [
    [2.5, 2, 1.5, 16],
    [4, 5, 11, 3],
    [4, 12, 7, 3],
  ],
  'align-centre': [
    [9.25, 2, 1.5, 16],
    [4, 5, 12, 3],
    [6, 12, 8, 3],
  ],
  'align-right': [
    [16, 2, 1.5, 16],
    [5, 5, 11, 3],
    [9, 12, 7, 3],
  ],
  'align-top': [
    [2, 2.5, 16, 1.5],
    [5, 4, 3, 11],
    [12, 4, 3, 7],
  ],
  'align-middle': [
    [2, 9.25, 16, 1.5],
    [5, 4, 3, 12],
    [12, 6, 3, 8],
  ],
  'align-bottom': [
    [2, 16, 16, 1.5],
    [5, 5, 3, 11],
    [12, 9, 3, 7],
  ],
  'distribute-horizontal': [
    [2, 3, 1.5, 14],
    [16.5, 3, 1.5, 14],
    [8.5, 5, 3, 10],
  ],
  'distribute-vertical': [
    [3, 2, 14, 1.5],
    [3, 16.5, 14, 1.5],
    [5, 8.5, 10, 3],
  ],
};

function icon(name: string): SVGSVGElement {
  const svg = svgElement('svg');
  svg.setAttribute('viewBox', '0 0 20 20');
  svg.setAttribute('aria-hidden', 'true');
  for (const [x, y, width, height] of ICONS[name] ?? []) {
    const rect = svgElement('rect');
    for (const [key, value] of Object.entries({ x, y, width, height })) rect.setAttribute(key, String(value));
    svg.append(rect);
  }
  return svg;
}

export class ArrangeBar {
  readonly element: HTMLElement;
  private readonly buttons: [HTMLButtonElement, BarAction][];

  /** `shown`: whether the bar shows now (a selection of two or more on a board the person may edit). */
  constructor(
    actions: readonly BarAction[],
    private readonly shown: () => boolean,
  ) {
    this.buttons = actions.map((action) => {
      const title = action.shortcut ? `${action.label} (${action.shortcut})` : action.label;
      const button = h(
        'button',
        { type: 'button', title, 'aria-label': action.label, 'data-arrange': action.name, onclick: action.perform },
        icon(action.name),
      );
      return [button, action];
    });
    const group = (distribute: boolean) =>
      this.buttons.filter(([, action]) => action.name.startsWith('distribute') === distribute).map(([b]) => b);
    this.element = h(
      'div.arrange-bar',
      { role: 'toolbar', 'aria-label': 'Align and distribute', hidden: true, 'data-testid': 'arrange-bar' },
      ...group(false),
      h('span.sep'),
      ...group(true),
    );
    // A press on the bar is no press on the canvas under it (no selection box, no lost selection).
    for (const type of ['pointerdown', 'mousedown', 'dblclick'] as const)
      this.element.addEventListener(type, (event) => event.stopPropagation());
  }

  /** Shows or hides the bar, and enables each button that can be done now. */
  update(): void {
    setHidden(this.element, !this.shown());
    if (this.element.hidden) return;
    for (const [button, action] of this.buttons) {
      const disabled = !action.enabled();
      if (button.disabled !== disabled) button.disabled = disabled;
    }
  }
}
