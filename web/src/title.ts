/**
 * A board's title in the app (docs/titles.md): shown in the tab, the header
 * and "Recently opened", edited in place in the header. The title lives in the
 * document (`meta.title`), so a rename syncs live, works offline and is undone
 * like any edit; it is written with the server's own mutation, checked with
 * the same schema (BoardTitle) REST and MCP use.
 */

import { boardTitle, setBoardTitle } from '../../board/model/title.js';
import { BoardTitle, MAX_BOARD_TITLE_CHARS } from '../../schema/index.js';
import { isViewToken } from '../../schema/view-token.js';
import { recent } from './api.js';
import type { BoardSession } from './session.js';
import { h, toast } from './ui.js';

/**
 * What a board is called: its title, else its kind and the start of its id (`Draw board 6ee9b121`);
 * a view-only link's board is "Shared draw board", since the start of its token would be part of a credential.
 */
export function boardLabel(id: string, mode: string, title?: string): string {
  if (title) return title;
  const kind = mode === 'todo' ? 'todo' : 'draw';
  return isViewToken(id) ? `Shared ${kind} board` : `${kind === 'todo' ? 'Todo' : 'Draw'} board ${id.slice(0, 8)}`;
}

/**
 * The header's title: a button showing the name, which a click (or Enter)
 * turns into a field; Enter or leaving the field renames, Escape cancels.
 * Keeps the tab's title and the recent list in step with the document, whoever
 * renames. `mode` is read at each change (a board may switch).
 */
export function titleControl(
  session: BoardSession,
  mode: () => string,
  options: { editable: () => boolean; recentList: boolean },
): { element: HTMLElement; destroy(): void } {
  const id = session.boardId;
  const meta = session.doc.getMap('meta');
  const label = h('button.board-title', { type: 'button', 'data-testid': 'board-title' });
  const field = h('input.board-title-field', {
    type: 'text',
    maxlength: MAX_BOARD_TITLE_CHARS,
    'aria-label': 'Board title',
    'data-testid': 'board-title-field',
    hidden: true,
  });
  const element = h('span.board-title-wrap', {}, label, field);
  let shown: string | undefined;

  // Shown at every change of the session (each write and its answer): it touches only what differs.
  const show = () => {
    const title = boardTitle(session.doc);
    const text = boardLabel(id, mode(), title);
    const editable = options.editable();
    if (label.textContent !== text) label.textContent = text;
    label.classList.toggle('untitled', !title);
    label.disabled = !editable;
    const [tip, name] = editable ? ['Rename this board', `${text}: rename`] : ['', text];
    if (label.title !== tip) label.title = tip;
    if (label.getAttribute('aria-label') !== name) label.setAttribute('aria-label', name);
    if (document.title !== text) document.title = text;
    if (options.recentList && title !== shown) recent.rename(id, title);
    shown = title;
  };

  const close = () => {
    field.hidden = true;
    label.hidden = false;
  };
  const commit = () => {
    if (field.hidden) return;
    const parsed = BoardTitle.safeParse(field.value);
    if (!parsed.success) {
      toast(`A title is at most ${MAX_BOARD_TITLE_CHARS} characters.`, 'warn');
      return;
    }
    close();
    if (parsed.data !== (boardTitle(session.doc) ?? '')) session.write((w) => setBoardTitle(w, parsed.data));
    label.focus();
  };
  label.addEventListener('click', () => {
    if (!options.editable()) return;
    field.value = boardTitle(session.doc) ?? '';
    field.placeholder = boardLabel(id, mode());
    label.hidden = true;
    field.hidden = false;
    field.focus();
    field.select();
  });
  field.addEventListener('keydown', (event: KeyboardEvent) => {
    // The board's own shortcuts (Delete, Ctrl+Z, tool keys) must not hear what is typed here.
    event.stopPropagation();
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
      label.focus();
    }
  });
  field.addEventListener('blur', commit);

  meta.observe(show);
  const stop = session.onChange(show);
  show();
  return {
    element,
    destroy: () => {
      meta.unobserve(show);
      stop();
    },
  };
}
