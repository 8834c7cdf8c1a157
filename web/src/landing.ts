/**
 * The page without a board, in one screen: what the service is, a live example
 * board, the start buttons and the boards recently opened here.
 *
 * The example is a real board, not a picture: the page creates it through the
 * same REST call a script would make (so its items carry the purple border of
 * `ai:rest`), once per browser, and shows it as the read-only embed
 * (`/?embed=1#<id>`), live. Without a network on the first view there is no
 * board to show, and the page says so rather than showing a fake.
 */
import { isViewToken } from '../../schema/view-token.js';
import { ApiError, api, recent } from './api.js';
import { themeToggle } from './theme.js';
import { boardLabel } from './title.js';
import { h, toast } from './ui.js';

const EXAMPLE_KEY = 'boards.example';

/** What the example board holds: written as a script would, over REST. */
const EXAMPLE = {
  mode: 'draw',
  content: {
    texts: [
      { x: 40, y: 30, content: '# Plan the launch\nA shared board: people, agents and scripts edit it together.' },
      { x: 40, y: 150, content: 'Write the announcement', postit: true },
      { x: 260, y: 150, content: 'Check the demo', postit: true },
      {
        x: 480,
        y: 150,
        content: '- [x] Board created over REST\n- [ ] An agent adds ideas over MCP\n- [ ] You drag them around',
        diagram: true,
      },
    ],
    lines: [
      {
        points: [
          [200, 175],
          [250, 175],
        ],
        color: 'blue',
      },
      {
        points: [
          [420, 175],
          [470, 175],
        ],
        color: 'blue',
      },
    ],
  },
};

/** The id of this browser's example board, created on the first view; null offline or if refused. */
async function exampleBoard(): Promise<string | null> {
  const known = localStorage.getItem(EXAMPLE_KEY);
  if (known) {
    const meta = await fetch(`/api/boards/${known}/meta`).catch(() => null);
    if (!meta || meta.ok) return known; // offline: the embed opens this browser's copy
  }
  try {
    const { id } = await api<{ id: string }>('POST', '/api/boards', EXAMPLE);
    localStorage.setItem(EXAMPLE_KEY, id);
    return id;
  } catch {
    return null;
  }
}

function example(): HTMLElement {
  const frame = h('div.example-frame', {}, h('p.muted', {}, 'Loading the example…'));
  const section = h('section.example', { 'aria-label': 'Example board' }, frame);
  void exampleBoard().then((id) => {
    if (!id) return frame.replaceChildren(h('p.muted', {}, 'The live example needs the network on its first view.'));
    frame.replaceChildren(
      h('iframe', {
        src: `/?embed=1#${id}`,
        title: 'Example board, live and read-only',
        loading: 'lazy',
        'data-testid': 'example',
      }),
    );
    section.append(
      h(
        'p.caption',
        {},
        'A live board, written by a script over REST (the purple border marks agents and scripts). ',
        h('a', { href: `#${id}` }, 'Open it'),
        ' and edit it with them.',
      ),
    );
  });
  return section;
}

export function renderLanding(root: HTMLElement): void {
  const template = h(
    'select',
    { 'aria-label': 'Todo template' },
    h('option', { value: 'kanban' }, 'Kanban'),
    h('option', { value: 'sprint' }, 'Sprint'),
    h('option', { value: 'bugs' }, 'Bugs'),
  );
  const create = async (mode: 'draw' | 'todo') => {
    try {
      const board = await api<{ id: string }>(
        'POST',
        '/api/boards',
        mode === 'todo' ? { mode, template: template.value } : { mode },
      );
      location.hash = board.id;
    } catch (error) {
      toast(error instanceof ApiError ? error.message : 'The board could not be created.', 'error');
    }
  };
  const list = recent.list();
  root.append(
    h('header.bar.landing-bar', {}, h('span.home', {}, 'Boards'), h('span.spacer'), themeToggle()),
    h(
      'main.landing',
      {},
      h(
        'div.intro',
        {},
        h(
          'div',
          {},
          h('h1', {}, 'Shared boards for people, agents and scripts'),
          h(
            'p.lead',
            {},
            'A canvas or a kanban, shared by a link. People edit it in the browser, AI agents over MCP and scripts over REST, on the same board, live. No account: whoever has the link can edit, unless it is locked with a key.',
          ),
          h(
            'ul.surfaces',
            {},
            h('li', {}, h('strong', {}, 'People'), ': this app, live together, offline too.'),
            h(
              'li',
              {},
              h('strong', {}, 'AI agents'),
              ': the MCP server at ',
              h('code', {}, '/mcp'),
              ' (',
              h('a', { href: '/.well-known/mcp.json' }, 'server card'),
              ').',
            ),
            h(
              'li',
              {},
              h('strong', {}, 'Scripts'),
              ': REST and JSON (',
              h('a', { href: '/llms.txt' }, 'llms.txt'),
              ').',
            ),
          ),
        ),
        example(),
      ),
      h(
        'div.start',
        {},
        h(
          'section.card',
          {},
          h('h2', {}, 'Draw'),
          h('p', {}, 'An infinite canvas for notes, post-its, diagrams, sketches, images and links.'),
          h(
            'button.primary',
            { type: 'button', onclick: () => create('draw'), 'data-testid': 'new-draw' },
            'New draw board',
          ),
        ),
        h(
          'section.card',
          {},
          h('h2', {}, 'Plan'),
          h('p', {}, 'A kanban of columns and tasks, in rows if you like.'),
          h('label', {}, 'Template ', template),
          h(
            'button.primary',
            { type: 'button', onclick: () => create('todo'), 'data-testid': 'new-todo' },
            'New todo board',
          ),
        ),
      ),
      h(
        'section.recent',
        {},
        h('h2', {}, 'Recently opened'),
        list.length
          ? h(
              'ul',
              {},
              ...list.map((entry) =>
                h(
                  'li',
                  {},
                  h('a', { href: `#${entry.id}`, 'data-id': entry.id }, boardLabel(entry.id, entry.mode, entry.title)),
                  // Opened by a view-only link: kept to open again, and said so, since it cannot edit.
                  isViewToken(entry.id) ? h('span.view-tag', {}, 'view only') : null,
                  h('span.when', {}, ` ${new Date(entry.opened).toLocaleString()}`),
                ),
              ),
            )
          : h('p.muted', {}, 'Boards you open appear here (kept in this browser only).'),
      ),
    ),
  );
}
