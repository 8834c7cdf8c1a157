/** The Export menu's actions: no keys, so the help leaves them out; the menu (draw/export.ts) lists them in this order. */
import type { DrawContext } from '../draw/context.js';
import { download, type ExportFormat } from '../draw/export.js';
import type { Action } from './action.js';

const needsSelection = (ctx: DrawContext) => ctx.layer.selection.size > 0;

/** A download of the board, or of the selection (offered only while there is one). */
const exportAs = (format: ExportFormat, selection: boolean): Action<DrawContext> => ({
  name: `export-${format}${selection ? '-selection' : ''}`,
  label: `${format.toUpperCase()} of the ${selection ? 'selection' : 'board'}`,
  keys: '',
  hidden: true,
  enabled: selection ? needsSelection : undefined,
  perform: (ctx) => void download(ctx, format, selection),
});

export const EXPORT_ACTIONS: readonly Action<DrawContext>[] = [
  exportAs('png', false),
  exportAs('svg', false),
  exportAs('png', true),
  exportAs('svg', true),
  { name: 'print', label: 'Print or save as PDF…', keys: '', hidden: true, perform: () => print() },
];
