/**
 * Live cursors: the other people's pointers drawn on the canvas, and this
 * person's own shared with them; and a mark on each text someone else is
 * typing in, so two people typing in one text see each other.
 */
import type { BoardSession } from '../session.js';
import { h } from '../ui.js';
import type { World } from './view.js';

/** Shares one's own cursor at most this often: enough to look live without flooding awareness. */
const CURSOR_INTERVAL_MS = 50;

/** The cursor layer of the world, redrawn whenever awareness changes. */
export class Cursors {
  /** The layer the cursors are drawn in, in world coordinates. */
  readonly element: HTMLElement = h('div.cursors');
  private lastSent = 0;

  /** `itemAt`: where an item is drawn (its top-left in the world), if it is. */
  constructor(
    private readonly session: BoardSession,
    private readonly itemAt: (id: string) => { x: number; y: number } | undefined,
  ) {}

  /** Follows awareness; returns what stops following it. */
  follow(): () => void {
    const awareness = this.session.provider.awareness;
    const onAwareness = () => this.render();
    awareness?.on('change', onAwareness);
    return () => awareness?.off('change', onAwareness);
  }

  /** Shares the pointer's world position, throttled. */
  send(world: World): void {
    const now = performance.now();
    if (now - this.lastSent < CURSOR_INTERVAL_MS) return;
    this.lastSent = now;
    this.session.setCursor({ x: Math.round(world.x), y: Math.round(world.y) });
  }

  /** Withdraws one's cursor when the pointer leaves the canvas. */
  hide(): void {
    this.session.setCursor(null);
  }

  private render(): void {
    const people = this.session.people();
    const marks = people.flatMap(({ editing, color, name }) => {
      const at = editing === undefined ? undefined : this.itemAt(editing);
      if (!at) return [];
      return [
        h(
          'div.editing-mark',
          { 'data-testid': 'editing-mark', style: `left:${at.x}px;top:${at.y}px;--who:${color}` },
          `${name} is editing`,
        ),
      ];
    });
    // While someone types, their name is on the text's mark: a label by their pointer would cover what they type.
    const cursors = people.flatMap(({ cursor, color, name, editing }) =>
      cursor
        ? [
            h(
              editing === undefined ? 'div.cursor' : 'div.cursor.typing',
              { style: `left:${cursor.x}px;top:${cursor.y}px;--who:${color}` },
              h('span', {}, name),
            ),
          ]
        : [],
    );
    this.element.replaceChildren(...marks, ...cursors);
  }
}
