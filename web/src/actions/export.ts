/** The Export menu's actions: no keys, so the help leaves them out; the menu (draw/export.ts) lists them in this order. */
import type { DrawContext } from '../draw/context.js';
import { download, type ExportFormat, type ExportScope, selectedFrame } from '../draw/export.js';
import type { Action } from './action.js';

const needsSelection = (ctx: DrawContext) => ctx.layer.selection.size > 0;
const needsFrame = (ctx: DrawContext) => selectedFrame(ctx) !== null;

/** A download of the board, of the selection, or of the one selected frame with what it holds (each offered only then). */
const exportAs = (format: ExportFormat, scope: ExportScope): Action<DrawContext> => ({
  name: `export-${format}${scope === 'board' ? '' : `-${scope}`}`,
  label: `${format.toUpperCase()} of the ${scope}`,
  keys: '',
  hidden: true,
  enabled: scope === 'selection' ? needsSelection : scope === 'frame' ? needsFrame : undefined,
  perform: (ctx) => void download(ctx, format, scope),
});

export const EXPORT_ACTIONS: readonly Action<DrawContext>[] = [
  exportAs('png', 'board'),
  exportAs('svg', 'board'),
  exportAs('png', 'selection'),
  exportAs('svg', 'selection'),
  exportAs('png', 'frame'),
  exportAs('svg', 'frame'),
  { name: 'print', label: 'Print or save as PDF…', keys: '', hidden: true, perform: () => print() },
];
