/**
 * The History panel (docs/history.md, "Browser"): the board's versions
 * newest first, a read-only view of one of them, and **Restore this version**.
 *
 * A version is shown as the server's SVG preview of it (`/versions/{v}/svg-preview`)
 * in an overlay over the board, never by touching the live document: the live
 * board keeps syncing underneath, and a restore reaches it like any other change
 * (docs/browser-app.md says why the preview rather than the board's own renderers).
 */
import type { VersionCounts, VersionSummary } from '../../board/model/versions.js';
import { ApiError, api, authorTag, keys } from './api.js';
import { readAsDataUrl } from './draw/images.js';
import { authorName } from './names.js';
import { dialog, h, toast } from './ui.js';

/** One page of `GET /versions`. */
type VersionPage = { boardId: string; versions: VersionSummary[]; next: number | null };
/** What `POST /versions/{v}/restore` answers once the restore is durable. */
type RestoreResult = { ok: true; version: number; restoredFrom: number; etag: string };

const PAGE_SIZE = 20;
/** The server records a version ~3 s after a burst of edits settles; the open list looks again a little later. */
const RELOAD_AFTER_EDIT_MS = 4_000;
/** How often the open list's relative times ("2 min ago") are brought up to date. */
const RETIME_MS = 30_000;

/** "just now", "2 min ago", "3 h ago", "5 d ago", then the date. */
export function relativeTime(at: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return days < 30 ? `${days} d ago` : new Date(at).toLocaleDateString();
}

/** The full local time, for a tooltip. */
const fullTime = (at: string) => new Date(at).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'medium' });

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `3 texts · 2 lines · 0 images`, in the board's own kinds. */
function countsText(counts: VersionCounts): string {
  const names: Record<keyof VersionCounts, string> = {
    texts: 'text',
    lines: 'line',
    images: 'image',
    shapes: 'shape',
    frames: 'frame',
    columns: 'column',
    tasks: 'task',
    lanes: 'row',
  };
  return (Object.keys(names) as (keyof VersionCounts)[])
    .flatMap((kind) => {
      const count = counts[kind];
      return count === undefined ? [] : [plural(count, names[kind])];
    })
    .join(' · ');
}

const authorsText = (authors: string[]) => (authors.length ? authors.map(authorName).join(', ') : 'no author');

/** The toggle button, the side panel (a sheet on a phone) and the overlay showing one version. */
export class HistoryPanel {
  /** Goes in the board's header (an embed has none). */
  readonly button: HTMLButtonElement;
  readonly panel: HTMLElement;
  /** The chosen version, over the board; the live board stays underneath, untouched. */
  readonly viewer: HTMLElement;
  private readonly heading = h('h2', { tabindex: -1 }, 'History');
  private readonly list = h('ol.versions', { 'aria-label': 'Versions, newest first' });
  private readonly note = h('p.history-note', { role: 'status' });
  private readonly more = h(
    'button.more',
    { type: 'button', hidden: true, onclick: () => void this.load(false) },
    'Load more',
  );
  private versions: VersionSummary[] = [];
  private next: number | null = null;
  private selected: VersionSummary | undefined;
  private loading = false;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private retimeTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly boardId: string,
    /** Whether this person may restore: not in an embed, nor without the key of a write-locked board. */
    private canRestore: boolean,
  ) {
    this.button = h(
      'button.history-toggle',
      {
        type: 'button',
        'aria-expanded': 'false',
        'aria-controls': 'history-panel',
        'data-testid': 'history',
        title: 'Earlier versions of this board',
        onclick: () => this.toggle(),
      },
      'History',
    );
    this.panel = h(
      'aside.history',
      { id: 'history-panel', 'aria-label': 'History', hidden: true },
      h(
        'header',
        {},
        this.heading,
        h(
          'button.icon',
          { type: 'button', 'aria-label': 'Close history', title: 'Close (Esc)', onclick: () => this.close() },
          '×',
        ),
      ),
      this.note,
      this.list,
      this.more,
    );
    this.viewer = h('section.version-view', { 'aria-label': 'Version', hidden: true });
    for (const element of [this.panel, this.viewer]) element.addEventListener('keydown', this.onKey);
  }

  /** Keys pressed in the panel are the panel's: the canvas and the kanban listen on the document and must not see a Delete or an arrow. */
  private readonly onKey = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key !== 'Escape') return;
    event.preventDefault();
    if (this.selected) this.unselect();
    else this.close();
  };

  get isOpen(): boolean {
    return !this.panel.hidden;
  }

  toggle(): void {
    if (this.isOpen) this.close();
    else this.open();
  }

  open(): void {
    this.panel.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    this.heading.focus();
    this.retimeTimer = setInterval(() => this.renderList(), RETIME_MS);
    void this.load(true);
  }

  close(): void {
    if (!this.isOpen) return;
    this.unselect(false);
    this.panel.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    clearInterval(this.retimeTimer);
    clearTimeout(this.reloadTimer);
    this.button.focus();
  }

  /** The lock or the key changed: shows or hides Restore. */
  setCanRestore(canRestore: boolean): void {
    if (canRestore === this.canRestore) return;
    this.canRestore = canRestore;
    if (this.selected) this.renderViewer(this.selected);
  }

  /** The board changed: once its burst has settled and been recorded, the open list shows the new version. */
  boardChanged(): void {
    if (!this.isOpen) return;
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.load(true), RELOAD_AFTER_EDIT_MS);
  }

  /** `fresh` reads the newest page and puts what is new on top; otherwise the page after the last one shown. */
  private async load(fresh: boolean): Promise<void> {
    if (this.loading || (!fresh && this.next === null)) return;
    this.loading = true;
    this.more.disabled = true;
    try {
      const before = fresh ? '' : `&before=${this.next}`;
      const page = await api<VersionPage>(
        'GET',
        `/api/boards/${this.boardId}/versions?limit=${PAGE_SIZE}${before}`,
        undefined,
        this.boardId,
      );
      if (!fresh) {
        this.versions.push(...page.versions);
        this.next = page.next;
      } else if (!this.versions.length) {
        this.versions = page.versions;
        this.next = page.next;
      } else {
        // Keep the older pages already loaded; only the versions newer than the newest shown are added.
        const newest = this.versions[0].version;
        const added = page.versions.filter((version) => version.version > newest);
        if (added.length === page.versions.length) this.next = page.next; // a gap: drop the older pages rather than show a hole
        this.versions = added.length === page.versions.length ? page.versions : [...added, ...this.versions];
      }
      this.note.textContent = this.versions.length
        ? ''
        : 'No versions yet: one is recorded a few seconds after each burst of edits.';
    } catch (error) {
      this.note.textContent =
        error instanceof ApiError && error.status !== 0
          ? `The history could not be read: ${error.message}`
          : 'The history needs the network.';
    } finally {
      this.loading = false;
      this.more.disabled = false;
      this.renderList();
    }
  }

  private renderList(): void {
    const now = Date.now();
    this.list.replaceChildren(
      ...this.versions.map((version) => {
        const { added, updated, removed } = version.changes;
        return h(
          'li',
          {},
          h(
            'button.version',
            {
              type: 'button',
              'data-version': version.version,
              'aria-pressed': String(this.selected?.version === version.version),
              onclick: () => void this.select(version),
            },
            h(
              'span.line',
              {},
              h('time', { datetime: version.at, title: fullTime(version.at) }, relativeTime(version.at, now)),
              h(
                'span.changes',
                { 'aria-label': `${added} added, ${updated} updated, ${removed} removed` },
                h('span.added', {}, `+${added}`),
                ' ',
                h('span.updated', {}, `~${updated}`),
                ' ',
                h('span.removed', {}, `−${removed}`),
              ),
            ),
            h(
              'span.line.muted',
              {},
              h('span.authors', {}, authorsText(version.authors)),
              h('span.number', {}, `v${version.version}`),
            ),
            version.restoredFrom !== undefined
              ? h('span.line.restored', {}, `Restored from v${version.restoredFrom}`)
              : null,
          ),
        );
      }),
    );
    this.more.hidden = this.next === null;
  }

  /** Shows a version read-only, from its SVG preview; the live board is not touched. */
  private async select(version: VersionSummary): Promise<void> {
    this.selected = version;
    this.renderList();
    this.viewer.replaceChildren(); // the previous version's picture goes: "Loading…" until this one's arrives
    const { heading, frame } = this.renderViewer(version);
    this.viewer.hidden = false;
    heading.focus();
    try {
      const key = keys.get(this.boardId);
      // fetch rather than <img src>: an `all`-locked board's history needs the key header.
      const response = await fetch(`/api/boards/${this.boardId}/versions/${version.version}/svg-preview`, {
        headers: key ? { 'x-board-key': key } : {},
      });
      if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})));
      // A data: URL, not a blob: one: opened in a tab of its own it has no origin, where a blob: page would be ours.
      const url = await readAsDataUrl(await response.blob());
      if (this.selected !== version) return; // another version was chosen meanwhile
      // An <img> never runs what the SVG holds, whatever the board's content.
      const picture = h('img', {
        src: url,
        alt: `The board at version ${version.version}: ${countsText(version.counts)}`,
      });
      // Fitted by default (a wide board is small on a phone); pressed, it is drawn at its own size and scrolls.
      const zoom = h(
        'button.picture',
        {
          type: 'button',
          'aria-pressed': 'false',
          title: 'Zoom: actual size or fitted',
          onclick: () => {
            const zoomed = frame.classList.toggle('zoomed');
            zoom.setAttribute('aria-pressed', String(zoomed));
          },
        },
        picture,
      );
      frame.replaceChildren(zoom);
    } catch (error) {
      if (this.selected !== version) return;
      const gone = error instanceof ApiError && error.status === 404;
      frame.replaceChildren(
        h(
          'p.muted',
          {},
          gone
            ? 'This version is no longer kept.'
            : error instanceof ApiError && error.status
              ? `The version could not be shown: ${error.message}`
              : 'Showing a version needs the network.',
        ),
      );
    }
  }

  /** Draws the viewer's header around its picture's frame (kept when redrawn): the heading to focus, the frame to fill. */
  private renderViewer(version: VersionSummary): { heading: HTMLElement; frame: HTMLElement } {
    const restore = this.canRestore
      ? h(
          'button.primary',
          { type: 'button', 'data-testid': 'restore', onclick: () => void this.restore(version) },
          'Restore this version',
        )
      : null;
    this.viewer.setAttribute('aria-label', `Version ${version.version}`);
    const frame =
      this.viewer.querySelector<HTMLElement>('.preview') ?? h('div.preview', {}, h('p.muted', {}, 'Loading…'));
    const heading = h(
      'h2',
      { tabindex: -1 },
      `Version ${version.version}`,
      ' ',
      h('span.muted', {}, h('time', { datetime: version.at, title: fullTime(version.at) }, relativeTime(version.at))),
    );
    this.viewer.replaceChildren(
      h(
        'header',
        {},
        h(
          'div.what',
          {},
          heading,
          h(
            'p',
            {},
            'Read-only: the live board is unchanged. ',
            h('span.muted', {}, `${countsText(version.counts)} · by ${authorsText(version.authors)}`),
          ),
        ),
        h(
          'div.actions',
          {},
          restore,
          h('button', { type: 'button', onclick: () => this.unselect() }, 'Back to the list'),
        ),
      ),
      frame,
    );
    return { heading, frame };
  }

  private unselect(focus = true): void {
    const was = this.selected;
    this.selected = undefined;
    this.viewer.hidden = true;
    this.viewer.replaceChildren();
    this.renderList();
    if (focus && was) this.list.querySelector<HTMLElement>(`[data-version="${was.version}"]`)?.focus();
  }

  /** Asks, then restores: one forward change on the server, which reaches this board (and everyone's) through sync. */
  private async restore(version: VersionSummary): Promise<void> {
    const answer = await dialog(
      `Restore version ${version.version}?`,
      [
        h(
          'p',
          {},
          `The board becomes as it was ${relativeTime(version.at)} (${fullTime(version.at)}), for everyone on it.`,
        ),
        h('p', {}, 'Nothing is lost: the board as it is now is kept in the history, so you can restore it in turn.'),
      ],
      [
        { label: 'Cancel', value: 'cancel' },
        { label: 'Restore', value: 'ok', primary: true },
      ],
    );
    if (answer !== 'ok') return;
    try {
      const result = await api<RestoreResult>(
        'POST',
        `/api/boards/${this.boardId}/versions/${version.version}/restore`,
        { author: authorTag() },
        this.boardId,
      );
      toast(`Restored version ${result.restoredFrom}.`);
      this.unselect();
      await this.load(true);
    } catch (error) {
      toast(error instanceof ApiError ? error.message : 'The version could not be restored.', 'error');
    }
  }

  destroy(): void {
    clearInterval(this.retimeTimer);
    clearTimeout(this.reloadTimer);
    this.panel.remove();
    this.viewer.remove();
    this.button.remove();
  }
}
