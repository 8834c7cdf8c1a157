/**
 * Pointing: a press that edits a text, or creates an item, when it ends. A
 * phone opens its keyboard only for a focus made during a user activation,
 * which for a tap is its pointerup.
 */
import type { DrawContext } from '../../context.js';
import type { World } from '../../view.js';
import type { GestureState } from '../state.js';

export class Pointing implements GestureState {
  readonly kind = 'open';

  /** `target`: the text to edit, or how to create an item at the press. */
  constructor(
    private readonly ctx: DrawContext,
    private readonly at: World,
    private readonly target: { edit: string } | { create: (at: World) => void },
  ) {}

  onPointerMove(): void {}

  onPointerUp(event: PointerEvent): void {
    if (event.type !== 'pointerup') return;
    if ('edit' in this.target) this.ctx.editing.edit(this.target.edit);
    else this.target.create(this.at);
  }

  onCancel(): void {}
}
