/** The starter columns of todo boards (the specification's decisions). */
import type { Template } from '../../schema/index.js';
import type { ColumnItem } from '../model/document-model.js';
import { putItem } from '../model/items.js';
import type { BoardWrite } from './board-write.js';
import { upsertText } from './draw.js';

export const TEMPLATE_COLUMNS: Record<Template, readonly string[]> = {
  kanban: ['To do', 'In progress', 'Done'],
  sprint: ['Backlog', 'Sprint', 'Review', 'Done'],
  bugs: ['Triage', 'Confirmed', 'In progress', 'Fixed'],
  none: [],
};

/** Replaces the board's columns with the template's, in lane 0, authored `system:template`. */
export function seedTemplate(w: BoardWrite, template: Template): ColumnItem[] {
  w.maps.columns.clear();
  delete w.counts.columns;
  return TEMPLATE_COLUMNS[template].map((title, index) => {
    const column: ColumnItem = {
      id: w.newId(),
      title,
      sort: index,
      lane: 0,
      author: 'system:template',
      last_updated: w.now,
    };
    putItem(w, 'columns', column);
    return column;
  });
}

/** Example diagrams for `GET /draw?seed=`: each a text whose whole content is one fenced mermaid block. */
export const DRAW_SEEDS = {
  'mermaid-flowchart': [
    '```mermaid',
    'flowchart TD',
    '    A[Idea] --> B{Worth doing?}',
    '    B -- Yes --> C[Plan it on a todo board]',
    '    B -- No --> D[Park it]',
    '    C --> E[Ship it]',
    '```',
  ].join('\n'),
  'mermaid-mindmap': [
    '```mermaid',
    'mindmap',
    '  root((Project))',
    '    Goals',
    '      Users',
    '      Scope',
    '    Plan',
    '      Milestones',
    '      Risks',
    '    Team',
    '```',
  ].join('\n'),
} as const;
export type DrawSeed = keyof typeof DRAW_SEEDS;

/** Writes a `GET /draw?seed=` example at the origin, authored as the write is (`system:template` at creation). */
export function seedDiagram(w: BoardWrite, seed: DrawSeed): void {
  upsertText(w, { x: 0, y: 0, content: DRAW_SEEDS[seed] });
}

export function isDrawSeed(value: unknown): value is DrawSeed {
  return typeof value === 'string' && Object.hasOwn(DRAW_SEEDS, value);
}
