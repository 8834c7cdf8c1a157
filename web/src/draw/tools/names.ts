/** The draw tools, in toolbar order, with the key that picks each: what the toolbar, the keys and the help list (index.ts holds what each does). */
export type ToolName = 'select' | 'hand' | 'text' | 'postit' | 'diagram' | 'pen' | 'arrow' | 'eraser' | 'link';

export const TOOLS: readonly { tool: ToolName; label: string; key: string }[] = [
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
