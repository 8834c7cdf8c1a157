/** The actions of every board kind: the shortcuts list itself. */
import type { Action } from './action.js';

export const ALWAYS: readonly Action<{ showHelp: () => void }>[] = [
  {
    name: 'help',
    label: 'This list',
    keys: '?',
    keyTest: (event) => event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey,
    perform: (ctx, event) => {
      event?.preventDefault();
      ctx.showHelp();
    },
  },
  { name: 'close-help', label: 'Close it', keys: 'Escape' }, // the dialog's own Escape
];
