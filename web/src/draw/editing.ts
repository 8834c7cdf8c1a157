/**
 * The writes a person makes on the canvas other than by dragging: placing a
 * new item, editing a text in place, ticking a checkbox, turning a text into a
 * post-it and back, recolouring and deleting the selection. Each is one domain
 * mutation on the shared document (BoardSession.write).
 */

import { isLink, type TextItem } from '../../../board/model/document-model.js';
import { BoardError } from '../../../board/model/errors.js';
import type { BoardWrite } from '../../../board/mutations/board-write.js';
import { eraseItem, upsertLink, upsertText } from '../../../board/mutations/draw.js';
import { recolor } from '../../../board/mutations/recolor.js';
import { toggleCheckbox } from '../../../board/render/markdown.js';
import { type InkColor, MAX_TEXT_CHARS } from '../../../schema/index.js';
import { type BoardSession, LOCAL_ORIGIN } from '../session.js';
import { dialog, h } from '../ui.js';
import { type EditorOptions, fitEditor, openEditor } from './editor.js';
import type { ItemLayer } from './items.js';
import { editLabel } from './label-editing.js';
import { LiveWrite } from './live.js';
import { asUrl } from './markup.js';
import { restyleShapes, selectedShapes } from './shape-style.js';
import { mapSelection, rebaseText } from './text-rebase.js';
import type { Toolbar } from './toolbar.js';
import { type Box, round, type World } from './view.js';

/** While a text is typed its content is written at most this often, so others see it typed: each write carries the whole text. */
const TYPING_WRITE_MS = 100;

/** The kinds of text a tool places. */
export type TextVariant = 'text' | 'postit' | 'diagram';

/** What a new text is made with, from the tool and the ink picked. */
type TextStyle = { postit?: boolean; diagram?: boolean; color?: InkColor };

/** Creates and edits items, keeping at most one text editor open. */
export class Editing {
  private area: HTMLTextAreaElement | null = null;
  /** The text under the open editor, if any. */
  private underEditor: string | null = null;

  /** `viewport` takes the keyboard back when an editor is closed by a key. */
  constructor(
    private readonly session: BoardSession,
    private readonly layer: ItemLayer,
    private readonly toolbar: Toolbar,
    private readonly viewport: HTMLElement,
    /** Makes the edited box readable (view.ts zoomToEdit); returns what puts the view back. */
    private readonly readable: (box: Box) => () => void,
  ) {
    // The item layer redraws a text on every change (each of its own drafts among them): the editor stays in front.
    layer.onChange((id) => id === this.underEditor && this.hide(id));
  }

  /** The open text editor, if any: presses and keys that land in it are its own. */
  get editor(): HTMLTextAreaElement | null {
    return this.area;
  }

  /** Places a link where the Link tool was pressed: the app's own dialog asks for its address, and says what is wrong with one. */
  async createLink(world: World): Promise<void> {
    const at = { x: round(world.x), y: round(world.y) };
    this.toolbar.setTool('select');
    // A text field that asks for a URL keyboard: the check below words its refusal, not the browser's own bubble.
    const input = h('input', {
      type: 'text',
      inputmode: 'url',
      placeholder: 'https://example.com',
      'aria-label': 'Link address',
      autocomplete: 'url',
    }) as HTMLInputElement;
    const answer = await dialog(
      'Add a link',
      [input],
      [
        { label: 'Cancel', value: 'cancel' },
        { label: 'Add link', value: 'ok', primary: true },
      ],
      async () => (asUrl(input.value) ? null : 'Enter an address that starts with http:// or https://'),
    );
    if (answer === 'ok') this.session.write((w) => upsertLink(w, { ...at, url: input.value.trim() }));
  }

  /** Places a new text, post-it or frame in the ink picked: the editor opens, and it is stored from its first character. */
  createText(world: World, variant: TextVariant): void {
    const at = { x: round(world.x), y: round(world.y) };
    const color = this.toolbar.color;
    this.toolbar.setTool('select');
    const style = {
      postit: variant === 'postit' || undefined,
      diagram: variant === 'diagram' || undefined,
      color: color === 'auto' ? undefined : color,
    };
    this.type(
      {
        ...at,
        width: 200,
        minHeight: style.postit ? 200 : 60, // a post-it is a note from the start (styles.css .item.text.postit)
        content: '',
        variant: style.postit ? 'postit' : style.diagram ? 'diagram' : undefined,
      },
      { at, style },
    );
  }

  /** Edits a text in place (a text that ends up as a bare URL becomes a link pill, an empty one goes), or a shape's, frame's or stroke's words. */
  edit(id: string): void {
    const kind = this.layer.kindOf(id);
    if (kind === 'shapes' || kind === 'frames' || kind === 'strokes') {
      this.area?.blur();
      this.area = editLabel(this.session, this.layer, kind, id, (byKey) => {
        this.area = null;
        if (byKey) this.viewport.focus({ preventScroll: true });
      });
      return;
    }
    const text = this.layer.maps().texts.get(id);
    const element = this.layer.elements.get(id) as HTMLElement | undefined;
    if (!text || !element || isLink(text)) return;
    this.type(
      {
        x: text.x,
        y: text.y,
        width: Math.max(element.offsetWidth, 200),
        minHeight: Math.max(element.offsetHeight, 60),
        content: text.content,
        variant: text.postit ? 'postit' : text.diagram ? 'diagram' : undefined,
      },
      { at: { x: text.x, y: text.y }, id },
    );
  }

  /**
   * Opens the editor over the text `target.id`, or over a new one at `target.at`, and shares
   * it as it is typed: the content is written every TYPING_WRITE_MS with the domain's
   * `upsertText` (a new text from its first character), then once more when editing ends, when
   * a bare URL becomes a link pill and an empty text goes. The whole edit is one undo step; one
   * refused at its end (an over-long text) leaves the text as it was before it.
   */
  private type(
    options: Omit<EditorOptions, 'onDone' | 'onInput'>,
    target: { at: { x: number; y: number }; id?: string; style?: TextStyle },
  ): void {
    this.area?.blur();
    const viewBack = this.readable({ x: options.x, y: options.y, width: options.width, height: options.minHeight });
    const live = new LiveWrite(this.session, TYPING_WRITE_MS);
    let id = target.id;
    /** The content this editor and the document last agreed on: what others type is merged in from there. */
    let synced = options.content;
    let refused = false; // the person was told once, not again every TYPING_WRITE_MS
    this.hide(id ?? null);
    /** The text as the document holds it now (someone may have moved it), or null: not yet written, or gone meanwhile. */
    const current = (): TextItem | null => {
      const text = id === undefined ? undefined : this.layer.maps().texts.get(id);
      return text && !isLink(text) ? text : null;
    };
    const draft = (content: string) => (w: BoardWrite) => {
      const text = current();
      if (id !== undefined && !text) return; // erased or replaced meanwhile
      if (!text && !content.trim()) return; // a new text is written from its first character
      const { x, y } = text ?? target.at;
      try {
        id = upsertText(w, { id, x, y, content, ...(text ? {} : target.style) }).id;
      } catch (error) {
        refused = error instanceof BoardError;
        throw error;
      }
      synced = content;
      this.hide(id);
      if (shared !== id) this.session.setEditing((shared = id));
    };
    // Someone else typing in this text: their characters join the editor's, which keeps its own and its caret.
    const stopMerging = this.layer.maps().texts.observe((changes, transaction) => {
      const area = this.area;
      if (transaction.origin === LOCAL_ORIGIN || id === undefined || !area) return;
      const after = changes.find((change) => change.key === id)?.after;
      if (!after || isLink(after) || after.content === synced) return;
      const typed = area.value;
      const merged = rebaseText(synced, typed, after.content);
      synced = after.content;
      if (merged !== typed) {
        const [start, end] = mapSelection(typed, merged, area.selectionStart, area.selectionEnd);
        area.value = merged;
        area.setSelectionRange(start, end);
        fitEditor(area);
      }
      if (merged !== synced) live.set(draft(merged));
    });
    let shared = id;
    this.session.setEditing(id ?? null);
    const final = (content: string) => (w: BoardWrite) => {
      const text = current();
      if (id !== undefined && !text) return null; // erased or replaced meanwhile
      const { x, y } = text ?? target.at;
      const url = asUrl(content);
      if (text && (url || !content.trim())) eraseItem(w, 'texts', text.id);
      if (url) return upsertLink(w, { x, y, url }).id;
      if (!content.trim()) return null;
      if (text && content === text.content) return text.id;
      return upsertText(w, { id, x, y, content, ...(text ? {} : target.style) }).id;
    };
    /** Puts back what a refused edit had drafted: the text as it was, or no text at all. */
    const restore = (w: BoardWrite) => {
      const text = current();
      if (!text) return;
      if (target.id === undefined) eraseItem(w, 'texts', text.id);
      else if (text.content !== options.content) upsertText(w, { id, x: text.x, y: text.y, content: options.content });
    };
    this.area = openEditor(this.layer.items, {
      ...options,
      onInput: (content) => {
        // Over the limit the domain refuses it at the end, with its message; meanwhile the last text that fitted stays.
        if (!refused && !this.session.readOnly && content.length <= MAX_TEXT_CHARS) live.set(draft(content));
      },
      onDone: (content, byKey) => {
        this.area = null;
        this.hide(null);
        stopMerging();
        viewBack();
        this.session.setEditing(null);
        if (!refused) live.set(final(content));
        const result = refused ? undefined : live.flush();
        if (result === undefined && !this.session.readOnly) this.session.write(restore);
        live.end();
        const element = id === undefined ? undefined : this.layer.elements.get(id);
        if (element) (element as HTMLElement).style.visibility = '';
        if (typeof result === 'string' && target.id === undefined) this.layer.selection.select([result]);
        // Ended by a key, the canvas takes the keyboard back; ended by a press elsewhere, focus goes there.
        if (byKey) this.viewport.focus({ preventScroll: true });
      },
    });
  }

  /** Keeps the text `id` hidden behind the editor, however often it is redrawn meanwhile (null: none). */
  private hide(id: string | null): void {
    this.underEditor = id;
    const element = id === null ? undefined : this.layer.elements.get(id);
    if (element) (element as HTMLElement).style.visibility = 'hidden';
  }

  /** Ticks or unticks the checkbox on line `line` of a text. */
  toggleLine(id: string, line: number): void {
    const text = this.layer.maps().texts.get(id) as { x: number; y: number; content: string } | undefined;
    if (!text) return;
    this.session.write((w) => upsertText(w, { id, x: text.x, y: text.y, content: toggleCheckbox(text.content, line) }));
  }

  /** Turns a text into a post-it, or a post-it back into a plain text (which is then no frame either). */
  togglePostit(id: string): void {
    const text = this.layer.maps().texts.get(id) as {
      x: number;
      y: number;
      content: string;
      postit?: boolean;
      diagram?: boolean;
    };
    this.session.write((w) =>
      upsertText(w, {
        id,
        x: text.x,
        y: text.y,
        content: text.content,
        postit: !text.postit,
        diagram: text.postit ? text.diagram : false,
      }),
    );
  }

  /** Recolours the selected texts, strokes and shapes in one write (the other kinds have no colour). */
  recolorSelection(color: InkColor): void {
    const ids = [...this.layer.selection].filter(
      (id) => this.layer.kindOf(id) === 'texts' || this.layer.kindOf(id) === 'strokes',
    );
    const shapes = selectedShapes(this.layer);
    if (ids.length || shapes.length)
      this.session.write((w) => {
        if (ids.length) recolor(w, ids, color);
        restyleShapes(w, shapes, { color });
      });
  }

  /** Erases every selected item in one write, so one undo brings them all back. */
  deleteSelection(): void {
    const ids = [...this.layer.selection];
    if (!ids.length) return;
    this.session.write((w) => {
      for (const id of ids) {
        const kind = this.layer.kindOf(id);
        if (kind) eraseItem(w, kind, id);
      }
    });
    this.layer.selection.select([]);
  }
}
