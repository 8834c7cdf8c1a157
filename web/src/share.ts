/**
 * The Share dialog (docs/sharing.md, "Browser"): the board's edit link, and
 * its view-only links: make one (with an optional label; its token is shown
 * this once), see the live ones and revoke any. Making and revoking are
 * writes of the board, so a locked board asks for its key first (the key
 * dialog, locks.ts) and then tries again.
 */
import { MAX_VIEW_LINK_LABEL_CHARS } from '../../schema/limits.js';
import type { ViewLink } from '../../schema/view-links.js';
import { ApiError, api } from './api.js';
import { askForKey } from './locks.js';
import { dialog, h } from './ui.js';

type MadeLink = { token: string; url: string; label: string | null; created_at: string; id: string };

/** What a refusal means to the person sharing, in their words; the server's message otherwise. */
function problem(error: unknown, doing: string): string {
  if (!(error instanceof ApiError)) return `The link could not be ${doing}.`;
  switch (error.body.code) {
    case 'too_many_view_links':
      return `This board already has ${error.body.limit ?? 'its most'} view-only links: revoke one to make another.`;
    case 'view_link_not_found':
      return 'That link was already revoked.';
    default:
      return error.message;
  }
}

/** `YYYY-MM-DD HH:MM:SS` (UTC, the board's format) in the person's own time. */
const when = (createdAt: string) => new Date(`${createdAt.replace(' ', 'T')}Z`).toLocaleString();

/** A read-only field showing `url`, and a button that copies it (selecting it when the clipboard is refused). */
function copyLine(url: string, name: string, testId: string): HTMLElement {
  const field = h('input.share-url', {
    type: 'text',
    readonly: true,
    value: url,
    'aria-label': name,
    spellcheck: 'false',
  });
  const status = h('span.share-copied', { role: 'status' });
  const copy = h(
    'button',
    {
      type: 'button',
      'data-testid': testId,
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(url);
          status.textContent = 'Copied.';
        } catch {
          field.select(); // no clipboard here (an http page, a refusal): the person copies it
          status.textContent = 'Press Ctrl+C to copy.';
        }
      },
    },
    'Copy',
  );
  return h('div.share-line', {}, field, copy, status);
}

/**
 * Opens the dialog for `boardId`; `onKey` is told when a key was entered for
 * it (the session then reconnects with it, as after the key dialog anywhere).
 */
export async function shareBoard(boardId: string, onKey: () => void): Promise<void> {
  const error = h('p.dialog-error', { role: 'alert', hidden: true });
  const say = (text: string | null) => {
    error.textContent = text ?? '';
    error.hidden = text === null;
  };
  // A write refused for want of the key asks for it once, then goes again.
  const asEditor = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (refusal) {
      if (!(refusal instanceof ApiError && refusal.status === 401)) throw refusal;
      if (!(await askForKey(boardId, 'This board is locked: enter its key to share it.'))) throw refusal;
      onKey();
      return call();
    }
  };

  const label = h('input', {
    type: 'text',
    maxlength: MAX_VIEW_LINK_LABEL_CHARS,
    placeholder: 'Label (optional)',
    'aria-label': 'Label of the new view-only link',
    'data-testid': 'view-link-label',
  });
  const made = h('div.share-made', { hidden: true });
  const list = h('ul.share-links', { 'aria-label': 'Live view-only links', 'data-testid': 'view-links' });

  const show = (links: ViewLink[]) => {
    list.replaceChildren(
      ...(links.length === 0 ? [h('li.muted', {}, 'None yet.')] : []),
      ...links.map((link) =>
        h(
          'li',
          { 'data-id': link.id },
          h(
            'span.share-what',
            {},
            h('span.share-label', {}, link.label ?? 'No label'),
            h('span.when', {}, `made ${when(link.created_at)}`),
          ),
          h(
            'button.danger',
            {
              type: 'button',
              'aria-label': `Revoke ${link.label ?? 'the link without a label'}`,
              onclick: () => void revoke(link),
            },
            'Revoke',
          ),
        ),
      ),
    );
  };
  const load = async () => {
    try {
      show(
        (
          await asEditor(() =>
            api<{ links: ViewLink[] }>('GET', `/api/boards/${boardId}/view-links`, undefined, boardId),
          )
        ).links,
      );
    } catch (refusal) {
      list.replaceChildren();
      say(problem(refusal, 'listed'));
    }
  };
  const make = async () => {
    say(null);
    try {
      const link = await asEditor(() =>
        api<MadeLink>(
          'POST',
          `/api/boards/${boardId}/view-links`,
          label.value.trim() ? { label: label.value.trim() } : {},
          boardId,
        ),
      );
      label.value = '';
      made.replaceChildren(
        h('p', {}, h('strong', {}, link.label ?? 'New view-only link'), ': copy it now, it is shown only this once.'),
        copyLine(link.url, 'The new view-only link', 'copy-view-link'),
      );
      made.hidden = false;
      made.querySelector('button')?.focus();
      await load();
    } catch (refusal) {
      say(problem(refusal, 'made'));
    }
  };
  const revoke = async (link: ViewLink) => {
    const sure = await dialog(
      'Revoke this link?',
      [
        h(
          'p',
          {},
          `Whoever has "${link.label ?? 'the link without a label'}" can no longer open the board, from now on.`,
        ),
      ],
      [
        { label: 'Cancel', value: 'cancel' },
        { label: 'Revoke', value: 'ok', primary: true },
      ],
    );
    if (sure !== 'ok') return;
    say(null);
    try {
      await asEditor(() => api('DELETE', `/api/boards/${boardId}/view-links/${link.id}`, undefined, boardId));
    } catch (refusal) {
      say(problem(refusal, 'revoked'));
    }
    await load();
  };
  // Enter in the label makes the link, rather than submitting (closing) the dialog.
  label.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void make();
  });

  const editLine = copyLine(`${location.origin}/#${boardId}`, 'Edit link', 'copy-edit-link');
  editLine.querySelector('button')?.setAttribute('autofocus', '');
  void load();
  await dialog(
    'Share this board',
    [
      h(
        'section.share',
        {},
        h('h3', {}, 'Edit link'),
        h('p.muted', {}, 'Anyone with it can change the board.'),
        editLine,
      ),
      h(
        'section.share',
        {},
        h('h3', {}, 'View-only links'),
        h('p.muted', {}, 'Show the board, live, and cannot change it. Revoke one and it stops working at once.'),
        h(
          'div.share-line',
          {},
          label,
          h('button', { type: 'button', 'data-testid': 'make-view-link', onclick: () => void make() }, 'Make link'),
        ),
        made,
        list,
      ),
      error,
    ],
    [{ label: 'Done', value: 'ok', primary: true }],
  );
}
