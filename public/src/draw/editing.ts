/**
 * The writes a person makes on the canvas other than by dragging: placing a
 * new item, editing a text in place, ticking a checkbox, turning a text into a
 * post-it and back, recolouring and deleting the selection. Each is one domain
 * mutation on the shared document (BoardSession.write).
 */
import type { InkColor } from '../../../schema/index.js';
import { isLink } from '../../../server/board/document-model.js';
import { eraseItem, upsertLink, upsertText } from '../../../server/board/draw.js';
import { toggleCheckbox } from '../../../server/board/markdown.js';
import { recolor } from '../../../server/board/recolor.js';
import type { BoardSession } from '../session.js';
import { openEditor, type EditorOptions } from './editor.js';
import type { ItemLayer } from './items.js';
import { asUrl } from './markup.js';
import type { Tool, Toolbar } from './toolbar.js';
import { round, type World } from './view.js';

/** Creates and edits items, keeping at most one text editor open. */
export class Editing {
  private area: HTMLTextAreaElement | null = null;

  /** `viewport` takes the keyboard back when an editor is closed by a key. */
  constructor(
    private readonly session: BoardSession,
    private readonly layer: ItemLayer,
    private readonly toolbar: Toolbar,
    private readonly viewport: HTMLElement,
  ) {}

  /** The open text editor, if any: presses and keys that land in it are its own. */
  get editor(): HTMLTextAreaElement | null {
    return this.area;
  }

  /** Places an item made with `tool`: a link asks for its address, a text opens the editor and is stored only once something is typed. */
  createAt(world: World, tool: Tool): void {
    const at = { x: round(world.x), y: round(world.y) };
    const color = this.toolbar.color;
    this.toolbar.setTool('select');
    if (tool === 'link') {
      const url = prompt('Link address (http or https)');
      if (url) this.session.write((w) => upsertLink(w, { ...at, url: url.trim() }));
      return;
    }
    const style = {
      postit: tool === 'postit' || undefined,
      diagram: tool === 'diagram' || undefined,
      color: color === 'auto' ? undefined : color,
    };
    this.open(
      {
        ...at,
        width: 200,
        minHeight: style.postit ? 200 : 60, // a post-it is a note from the start (styles.css .item.text.postit)
        content: '',
        variant: style.postit ? 'postit' : style.diagram ? 'diagram' : undefined,
      },
      (content) => {
        const url = asUrl(content);
        if (!url && !content.trim()) return; // an empty new text is no item at all
        const item = this.session.write((w) =>
          url ? upsertLink(w, { ...at, url }) : upsertText(w, { ...at, content, ...style }),
        );
        if (item) this.layer.selection.select([item.id]);
      },
    );
  }

  /** Edits a text in place; a text that ends up as a bare URL becomes a link pill, an empty one goes. */
  edit(id: string): void {
    const text = this.layer.maps().texts.get(id);
    const element = this.layer.elements.get(id) as HTMLElement | undefined;
    if (!text || !element || isLink(text)) return;
    element.style.visibility = 'hidden'; // the editor stands in for it
    this.open(
      {
        x: text.x,
        y: text.y,
        width: Math.max(element.offsetWidth, 200),
        minHeight: Math.max(element.offsetHeight, 60),
        content: text.content,
        variant: text.postit ? 'postit' : text.diagram ? 'diagram' : undefined,
      },
      (content) => {
        element.style.visibility = '';
        const current = this.layer.maps().texts.get(id);
        if (!current || isLink(current)) return; // erased or replaced meanwhile
        const url = asUrl(content);
        this.session.write((w) => {
          if (url) {
            eraseItem(w, 'texts', id);
            upsertLink(w, { x: current.x, y: current.y, url });
          } else if (!content.trim()) eraseItem(w, 'texts', id);
          else if (content !== current.content) upsertText(w, { id, x: current.x, y: current.y, content });
        });
      },
    );
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

  /** Recolours the selected texts and strokes (the other kinds have no colour). */
  recolorSelection(color: InkColor): void {
    const ids = [...this.layer.selection].filter(
      (id) => this.layer.kindOf(id) === 'texts' || this.layer.kindOf(id) === 'strokes',
    );
    if (ids.length) this.session.write((w) => recolor(w, ids, color));
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

  /** Opens the one text editor (closing any other); `save` decides what its text becomes. */
  private open(options: Omit<EditorOptions, 'onDone'>, save: (content: string) => void): void {
    this.area?.blur();
    this.area = openEditor(this.layer.items, {
      ...options,
      onDone: (content, byKey) => {
        this.area = null;
        save(content);
        // Ended by a key, the canvas takes the keyboard back; ended by a press elsewhere, focus goes there.
        if (byKey) this.viewport.focus({ preventScroll: true });
      },
    });
  }
}
