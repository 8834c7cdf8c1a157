/** The in-place text editor of the draw canvas: a textarea over the text, growing with what is typed. */
import { h } from '../ui.js';

export type EditorOptions = {
  /** World position and the least size of the box (the text's own box when it has one). */
  x: number;
  y: number;
  width: number;
  minHeight: number;
  content: string;
  /** `postit` or `diagram`, so the editor looks like what it edits. */
  variant?: string;
  /** Enter ends editing too (a title, a connector's label): no line breaks. */
  oneLine?: boolean;
  /** Called on every change of the text while it is edited (so others can see it typed). */
  onInput?: (content: string) => void;
  /** Called once when editing ends, with the text as it is; `byKey` when Escape or Ctrl+Enter ended it. */
  onDone: (content: string, byKey: boolean) => void;
};

/** Sizes the editor to its text: the box grows with it, so no line ever scrolls out of sight. */
export function fitEditor(area: HTMLTextAreaElement): void {
  area.style.height = 'auto';
  area.style.height = `${area.scrollHeight + area.offsetHeight - area.clientHeight}px`;
}

/**
 * Opens the editor in `parent` (the canvas's item layer) and focuses it. Editing
 * ends on Escape or Ctrl/⌘+Enter, or when the editor loses focus; every way
 * keeps what was typed (as Excalidraw does), the caller decides what to store.
 */
export function openEditor(parent: HTMLElement, options: EditorOptions): HTMLTextAreaElement {
  const area = h('textarea.editor', {
    'aria-label': 'Text',
    style: `left:${options.x}px;top:${options.y}px;width:${options.width}px;min-height:${options.minHeight}px`,
  });
  if (options.variant) area.classList.add(...options.variant.split(' '));
  area.value = options.content;
  let done = false;
  const finish = (byKey: boolean) => {
    if (done) return;
    done = true;
    area.remove();
    options.onDone(area.value, byKey);
  };
  const grow = () => fitEditor(area);
  area.addEventListener('input', () => {
    grow();
    options.onInput?.(area.value);
  });
  area.addEventListener('blur', () => finish(false));
  area.addEventListener('keydown', (event) => {
    event.stopPropagation();
    if (event.key === 'Escape' || (event.key === 'Enter' && (event.ctrlKey || event.metaKey || options.oneLine))) {
      event.preventDefault();
      finish(true);
    }
  });
  area.addEventListener('pointerdown', (event) => event.stopPropagation());
  parent.append(area);
  grow();
  // The canvas clips rather than scrolls: focusing must not scroll it.
  area.focus({ preventScroll: true });
  area.setSelectionRange(area.value.length, area.value.length);
  return area;
}
