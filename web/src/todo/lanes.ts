/** A row of columns (a lane): its title and "+ Column" button, and the strip its columns scroll in, which stays for as long as the row does. */
import { h } from '../ui.js';
import { columnDropZone } from './drag.js';

export class LaneView {
  readonly element: HTMLElement;
  /** The row's columns: filled by the kanban (placeChildren). */
  readonly strip = h('div.columns');
  private readonly head = h('div.lane-head');

  constructor(
    private readonly lane: number,
    private readonly actions: {
      setTitle: (lane: number, title: string) => void;
      addColumn: (lane: number) => void;
      editable: () => boolean;
      /** Puts a column in this row, before `beforeId` (at the end for null). */
      moveColumn: (id: string, lane: number, beforeId: string | null) => void;
    },
  ) {
    this.element = h('section.lane', { 'data-lane': lane }, this.head, this.strip);
    columnDropZone(this.strip, actions.editable, (id, beforeId) => actions.moveColumn(id, lane, beforeId));
  }

  /** Draws the row's head again, for a new title or a change of who may edit. */
  draw(title: string | undefined, editable: boolean): void {
    const { lane, actions } = this;
    const heading = editable
      ? h('input.lane-title', {
          value: title ?? '',
          placeholder: `Row ${lane + 1}`,
          'aria-label': `Title of row ${lane + 1}`,
          onchange: (event: Event) => actions.setTitle(lane, (event.target as HTMLInputElement).value),
        })
      : h('h2.lane-title', {}, title ?? `Row ${lane + 1}`);
    // "+ Column" sits in the row's header, not after the last column: it stays on screen however far the columns run.
    this.head.replaceChildren(
      heading,
      ...(editable
        ? [h('button.add-column', { type: 'button', onclick: () => actions.addColumn(lane) }, '+ Column')]
        : []),
    );
  }
}
