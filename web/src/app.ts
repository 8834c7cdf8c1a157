/**
 * The browser app: the landing page, or the board named in the URL hash
 * (`/#<boardId>`, `/?embed=1#<boardId>`). Loaded by the entry (main.ts) once it
 * has started the board's first requests.
 */
import './jitless.js';
import { isViewToken } from '../../schema/view-token.js';
import { ApiError, type BoardMeta, keys, loadMeta, recent } from './api.js';
import { DrawBoard } from './draw/board.js';
import { boardInHash, opensBoard, prefetchBoard, takeMeta } from './first-paint.js';
import { headerMenu } from './header-menu.js';
import { bindHelpKey, helpButton } from './help.js';
import { HistoryPanel } from './history.js';
import { renderLanding } from './landing.js';
import { askForKey, lockBoard, unlockBoard } from './locks.js';
import { localDbName, localMeta } from './offline.js';
import { BoardSession } from './session.js';
import { shareBoard } from './share.js';
import { heldStatus } from './status.js';
import { applyTheme, themeToggle } from './theme.js';
import { boardLabel, titleControl } from './title.js';
import { KanbanBoard } from './todo/kanban.js';
import { h, required, setHidden, toast } from './ui.js';

applyTheme();
const root = required(document.getElementById('app'), 'the #app element');
const embed = new URLSearchParams(location.search).get('embed') === '1';
/** The people chips the header shows before it counts the rest (`+3`). */
const MAX_PEOPLE_SHOWN = 3;
let close: (() => void) | undefined;

function message(title: string, text: string, ...extra: Node[]): void {
  root.replaceChildren(
    h(
      'main.message',
      {},
      h('h1', {}, title),
      h('p', {}, text),
      ...extra,
      embed ? null : h('p', {}, h('a', { href: '/' }, 'Start a new board')),
    ),
  );
}

/** A view-only link that names nothing any more: this browser forgets it, its copy of the board included. */
function linkGone(token: string, title: string, text: string): void {
  close?.();
  close = undefined;
  recent.remove(token);
  indexedDB.deleteDatabase(localDbName(token)); // waits for the closed session's connection, then deletes
  message(title, text);
}

async function route(): Promise<void> {
  close?.();
  close = undefined;
  const id = boardInHash();
  document.body.classList.toggle('embed', embed);
  if (!id) {
    root.replaceChildren();
    document.title = 'Boards';
    return renderLanding(root);
  }
  if (!opensBoard(id)) return message('No board here', 'This link does not name a board.');
  prefetchBoard(id); // started already by the entry, unless the hash changed since (first-paint.ts)
  const meta = await takeMeta(id);
  if ('offline' in meta) {
    const local = await localMeta(id);
    if (local) return open(id, local, true);
    return message(
      'You are offline',
      'This board was never opened in this browser, so there is no copy of it here. It opens once the network is back.',
      h('button', { type: 'button', onclick: () => void show() }, 'Try again'),
    );
  }
  if (isViewToken(id) && ('missing' in meta || 'deleted' in meta))
    return linkGone(
      id,
      'This link no longer works',
      'This view-only link was revoked, or its board erased. Ask whoever shared it for a new one.',
    );
  if ('missing' in meta) {
    recent.remove(id);
    return message('No board here', 'There is no board at this address.');
  }
  if ('deleted' in meta) {
    recent.remove(id);
    return message('This board was erased', `It was erased on ${meta.deleted} UTC; its content is gone.`);
  }
  if ('needsKey' in meta) {
    if (embed) return message('This board is locked', 'It cannot be shown here.');
    if (await askForKey(id, 'Enter its access key to open it.')) return route();
    return message(
      'This board is locked',
      'You need its access key to open it.',
      h('button', { type: 'button', onclick: () => void route() }, 'Enter the key'),
    );
  }
  open(id, meta);
}

/** Opens a board; `offline` when its meta came from this browser's copy, to be read again once connected. */
function open(id: string, meta: BoardMeta, offline = false): void {
  if (!embed) recent.add(id, meta.mode, meta.title);
  document.title = boardLabel(id, meta.mode, meta.title);
  let lockMode = meta.lockMode;
  // Opened by a view-only link's token: read-only from the first paint, and it cannot share (docs/sharing.md).
  const viewOnly = isViewToken(id);
  const session = new BoardSession(id, {
    readOnly: embed || viewOnly,
    present: !embed,
    onRevoked: () =>
      linkGone(
        id,
        'This view-only link was revoked',
        'Whoever shared it took it back, so it no longer shows the board. Ask them for a new link if you need one.',
      ),
    onNeedKey: (reason) => {
      if (reason === 'board_locked' && !embed)
        void askForKey(id, 'The board was locked. Enter its key to go on.').then((ok) => ok && session.reconnect());
      else if (reason === 'board_not_found') void route();
      else if (reason.startsWith('rate_limited'))
        toast(
          `Too many wrong keys from this address: try again in ${/retryAfterSeconds=(\d+)/.exec(reason)?.[1] ?? 'a few'} s.`,
          'warn',
          7000,
        );
    },
  });
  const status = h('span.status', { role: 'status', 'aria-live': 'polite', 'data-testid': 'status' });
  const people = h('span.people', { role: 'group', 'aria-label': 'People here' });
  const lockButton = h('button', { type: 'button', 'data-testid': 'lock' });
  const keyButton = h(
    'button',
    { type: 'button', 'data-testid': 'enter-key', hidden: true, onclick: () => askKey() },
    'Enter key',
  );
  const unlockButton = h(
    'button',
    {
      type: 'button',
      hidden: true,
      onclick: async () => {
        if (await unlockBoard(id)) {
          lockMode = null;
          session.reconnect();
          refresh();
        }
      },
    },
    'Unlock',
  );
  lockButton.addEventListener('click', async () => {
    const mode = await lockBoard(id, lockMode);
    if (mode) {
      lockMode = mode as BoardMeta['lockMode'];
      session.reconnect();
      refresh();
    }
  });
  const canRestore = () => !embed && !session.readOnly && (lockMode === null || keys.get(id) !== undefined);
  const history = new HistoryPanel(id, canRestore());
  const askKey = async () => (await askForKey(id, 'Enter the access key to edit.')) && session.reconnect();
  // A visitor without the key of a write-locked board: says so above the board, with the way in.
  const lockedBanner = h(
    'div.locked-banner',
    { role: 'status', 'data-testid': 'locked-banner', hidden: true },
    h('strong', {}, 'Locked: view only.'),
    h('span', {}, ' Whoever locked this board can give you its key to edit.'),
    h('button', { type: 'button', onclick: askKey }, 'Enter key'),
  );
  // The same place for a view-only link, without the way in: a token never edits, whatever the key.
  const viewBanner = h(
    'div.locked-banner.view-banner',
    { role: 'status', 'data-testid': 'view-banner' },
    h('strong', {}, 'View-only link.'),
    h('span', {}, ' Look, zoom, export and see the history: this link cannot change the board.'),
  );
  // The board's name, renamed in place (title.ts); the document holds it, so it follows every rename live.
  const title = titleControl(
    session,
    () => (session.doc.getMap('meta').get('mode') as string | undefined) ?? meta.mode,
    { editable: () => !embed && !session.readOnly, recentList: !embed },
  );
  const share = viewOnly
    ? h(
        'button',
        {
          type: 'button',
          onclick: () =>
            navigator.clipboard?.writeText(`${location.origin}/#${id}`).then(() => toast('View-only link copied.')),
        },
        'Copy link',
      )
    : h(
        'button',
        {
          type: 'button',
          'data-testid': 'share',
          onclick: () =>
            void shareBoard(id, () => {
              session.reconnect();
              refresh();
            }),
        },
        'Share',
      );
  const header = h(
    'header.bar',
    {},
    h('a.home', { href: '/', title: 'All boards' }, 'Boards'),
    title.element,
    status,
    people,
    h('span.spacer'),
    embed ? null : history.button,
    // One "⋯" on a phone (header-menu.ts); a view-only link has no key or lock to offer.
    viewOnly ? headerMenu(share, themeToggle()) : headerMenu(share, keyButton, lockButton, unlockButton, themeToggle()),
    helpButton(() => mode),
  );

  // The header is refreshed at every change of the session and of the people here (each of their cursor moves):
  // it touches only what differs, since any change to it has the browser paint and lay out the page's layers again.
  const showStatus = heldStatus(status);
  let peopleShown = '';
  const refresh = () => {
    const { online, connected, synced, pending, edits } = session.state;
    showStatus(
      !online || !connected
        ? `Offline${edits ? ` · ${edits} edit(s) waiting` : ''}`
        : pending || edits
          ? 'Saving…'
          : synced
            ? 'Live'
            : 'Connecting…',
      !online || !connected ? 'offline' : pending || edits ? 'pending' : 'live',
    );
    const readOnly = session.readOnly && !embed;
    setHidden(keyButton, !readOnly);
    setHidden(lockedBanner, !readOnly);
    const hasKey = keys.get(id) !== undefined;
    setHidden(lockButton, readOnly || (lockMode !== null && !hasKey));
    const lockLabel = lockMode ? 'Change lock' : 'Lock';
    if (lockButton.textContent !== lockLabel) lockButton.textContent = lockLabel;
    setHidden(unlockButton, !lockMode || !hasKey || readOnly);
    header.classList.toggle('readonly', readOnly);
    history.setCanRestore(canRestore());
    // A few chips and a count of the rest: however many are here, the header keeps its width.
    const others = session.people();
    const peopleNow = JSON.stringify(others.map(({ name, color }) => [name, color]));
    if (peopleNow === peopleShown) return;
    peopleShown = peopleNow;
    const shown = others.length > MAX_PEOPLE_SHOWN ? others.slice(0, MAX_PEOPLE_SHOWN - 1) : others;
    const rest = others.slice(shown.length);
    // On a phone only the count shows (styles.css): a chip per person would push the header's menu off the screen.
    people.replaceChildren(
      ...shown.map((person) =>
        h('span.person', { style: `--who:${person.color}`, title: person.name }, person.name.slice(-4)),
      ),
      ...(rest.length > 0
        ? [h('span.person.more', { title: rest.map((person) => person.name).join(', ') }, `+${rest.length}`)]
        : []),
      ...(others.length > 0
        ? [
            h(
              'span.people-count',
              { title: others.map((person) => person.name).join(', '), 'aria-label': `${others.length} others here` },
              String(others.length),
            ),
          ]
        : []),
    );
  };
  session.onChange(refresh);
  session.provider.awareness?.on('change', refresh);
  refresh();
  if (offline) {
    const stop = session.onChange(() => {
      if (!session.state.connected) return;
      stop();
      void loadMeta(id).then((fresh) => {
        if (!('lockMode' in fresh)) return; // a lock that now refuses it, or an erased board: the provider's authentication says so
        lockMode = fresh.lockMode;
        refresh();
      });
    });
  }

  let view: DrawBoard | KanbanBoard | undefined;
  let mode = meta.mode;
  const mount = () => {
    view?.destroy();
    view = mode === 'todo' ? new KanbanBoard(session, { embed }) : new DrawBoard(session, { embed });
    // The history sits beside the board (over it on a phone); an embed is read-only and minimal, so it has none.
    root.replaceChildren(
      ...(embed ? [] : [header, viewOnly ? viewBanner : lockedBanner]),
      h('div.board-area', {}, view.element, history.viewer, history.panel),
    );
    if (embed && view instanceof DrawBoard) {
      const board = view;
      void session.provider.on('synced', () => requestAnimationFrame(() => board.fit()));
      requestAnimationFrame(() => board.fit());
    }
  };
  const onMeta = () => {
    const next = session.mode;
    if (next !== mode) {
      mode = next;
      mount();
    }
  };
  session.doc.getMap('meta').observe(onMeta);
  // Not 'update': a listener there makes Yjs encode every transaction again (see BoardSession.quietFirstSync).
  session.doc.on('afterTransaction', (transaction) => transaction.changed.size > 0 && history.boardChanged());
  mount();
  const unbindHelp = embed ? () => {} : bindHelpKey(() => mode);
  close = () => {
    title.destroy();
    unbindHelp();
    history.destroy();
    view?.destroy();
    session.destroy();
  };
}

function show(): Promise<void> {
  return route().catch((error) =>
    message('Something went wrong', error instanceof ApiError ? error.message : String(error)),
  );
}

addEventListener('hashchange', () => void show());
void show();
