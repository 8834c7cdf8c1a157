/**
 * A selected shape's fill (the contract's shapes extension): none, light or
 * solid, one write for every selected shape (one undo step). The fill bar's
 * buttons and the context menu run these, as the arrange bar runs align.
 */
import { SHAPE_FILLS, type ShapeFill } from '../../../schema/index.js';
import type { DrawContext } from '../draw/context.js';
import { fillSelection, selectedShapes } from '../draw/shape-style.js';
import type { Action } from './action.js';

const FILL_LABELS: Record<ShapeFill, string> = { none: 'No fill', semi: 'Light fill', solid: 'Solid fill' };

/** The action that gives the selected shapes `fill`, by name `fill-<fill>`. */
export const fillActionName = (fill: ShapeFill) => `fill-${fill}`;

export const fillActions: readonly Action<DrawContext>[] = [
  { name: 'fill', label: 'Fill the selected shapes: none, light or solid', keys: 'The fill bar, the context menu' },
  ...SHAPE_FILLS.map(
    (fill): Action<DrawContext> => ({
      name: fillActionName(fill),
      label: FILL_LABELS[fill],
      keys: '',
      hidden: true, // the help lists them in the fill's row
      changes: true,
      enabled: (ctx) => ctx.editable() && selectedShapes(ctx.layer).length > 0,
      perform: (ctx) => fillSelection(ctx, fill),
    }),
  ),
];
