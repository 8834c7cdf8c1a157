/** The page without a board: start a draw or todo board, or reopen a recent one. */
import { api, ApiError, recent } from './api.js';
import { h, toast } from './ui.js';

export function renderLanding(root: HTMLElement): void {
  const template = h('select', { 'aria-label': 'Todo template' }, h('option', { value: 'kanban' }, 'Kanban'), h('option', { value: 'sprint' }, 'Sprint'), h('option', { value: 'bugs' }, 'Bugs'));
  const create = async (mode: 'draw' | 'todo') => {
    try {
      const board = await api<{ id: string }>('POST', '/api/boards', mode === 'todo' ? { mode, template: template.value } : { mode });
      location.hash = board.id;
    } catch (error) {
      toast(error instanceof ApiError ? error.message : 'The board could not be created.', 'error');
    }
  };
  const list = recent.list();
  root.append(
    h('main.landing', {},
      h('h1', {}, 'Boards'),
      h('p.lead', {}, 'A canvas or a kanban, shared by link. People, AI agents and scripts edit it together, live. No account needed.'),
      h('div.start', {},
        h('section.card', {},
          h('h2', {}, 'Draw'),
          h('p', {}, 'An infinite canvas for notes, post-its, diagrams, sketches, images and links.'),
          h('button.primary', { type: 'button', onclick: () => create('draw'), 'data-testid': 'new-draw' }, 'New draw board'),
        ),
        h('section.card', {},
          h('h2', {}, 'Plan'),
          h('p', {}, 'A kanban of columns and tasks, in rows if you like.'),
          h('label', {}, 'Template ', template),
          h('button.primary', { type: 'button', onclick: () => create('todo'), 'data-testid': 'new-todo' }, 'New todo board'),
        ),
      ),
      h('section.recent', {},
        h('h2', {}, 'Recently opened'),
        list.length
          ? h('ul', {}, ...list.map((entry) => h('li', {}, h('a', { href: `#${entry.id}` }, `${entry.mode === 'todo' ? 'Todo' : 'Draw'} board ${entry.id.slice(0, 8)}`), h('span.when', {}, ` ${new Date(entry.opened).toLocaleString()}`))))
          : h('p.muted', {}, 'Boards you open appear here (kept in this browser only).'),
      ),
      h('p.muted', {}, 'Agents: see ', h('a', { href: '/llms.txt' }, 'llms.txt'), ' and the ', h('a', { href: '/.well-known/mcp.json' }, 'MCP server card'), '.'),
    ),
  );
}
