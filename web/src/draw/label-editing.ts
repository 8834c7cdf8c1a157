/**
 * Editing the words of a shape (its label), a frame (its title) or a stroke
 * (its label) in place, with the text editor (editor.ts): shared as it is
 * typed, as a text is, and one undo step.
 */
import type { BoardWrite } from '../../../board/mutations/board-write.js';
import { upsertStroke } from '../../../board/mutations/draw.js';
import { editFrame, editShape } from '../../../board/mutations/shapes.js';
import { MAX_FRAME_TITLE_CHARS, MAX_SHAPE_LABEL_CHARS, MAX_STROKE_LABEL_CHARS } from '../../../schema/index.js';
import type { BoardSession } from '../session.js';
import { fitEditor, openEditor } from './editor.js';
import type { ItemLayer } from './items.js';
import { LiveWrite } from './live.js';

/** As often as a text's typing is shared (editing.ts). */
const TYPING_WRITE_MS = 100;

/** The kinds whose words this edits. */
export type Labelled = 'shapes' | 'frames' | 'strokes';

/** What an edit of `id` shows and writes: where the editor goes, the words now, and the write of new words. */
function target(layer: ItemLayer, kind: Labelled, id: string) {
  const { shapes, frames, lines } = layer.maps();
  if (kind === 'shapes') {
    const shape = shapes.get(id);
    if (!shape) return null;
    return {
      box: { x: shape.x, y: shape.y, width: shape.width, minHeight: shape.height },
      words: shape.label ?? '',
      max: MAX_SHAPE_LABEL_CHARS,
      write: (w: BoardWrite, label: string) => void editShape(w, id, { label }),
    };
  }
  if (kind === 'frames') {
    const frame = frames.get(id);
    if (!frame) return null;
    return {
      box: { x: frame.x, y: frame.y - 30, width: Math.min(frame.width, 320), minHeight: 26 },
      words: frame.title ?? '',
      max: MAX_FRAME_TITLE_CHARS,
      oneLine: true,
      write: (w: BoardWrite, title: string) => void editFrame(w, id, { title }),
    };
  }
  const stroke = lines.get(id);
  const box = layer.strokeBox(id);
  if (!stroke || !box) return null;
  const middle = layer.strokeLabelAt(id) ?? { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  return {
    box: { x: middle.x - 100, y: middle.y - 15, width: 200, minHeight: 30 },
    words: stroke.label ?? '',
    max: MAX_STROKE_LABEL_CHARS,
    oneLine: true,
    write: (w: BoardWrite, label: string) => {
      const current = w.maps.lines.get(id);
      if (current) upsertStroke(w, { id, points: current.points, label });
    },
  };
}

/** Opens the editor on the words of item `id`; `onDone` hears when it closes (by a key: `byKey`). */
export function editLabel(
  session: BoardSession,
  layer: ItemLayer,
  kind: Labelled,
  id: string,
  onDone: (byKey: boolean) => void,
): HTMLTextAreaElement | null {
  const edited = target(layer, kind, id);
  if (!edited) return null;
  const live = new LiveWrite(session, TYPING_WRITE_MS);
  const element = layer.elements.get(id) as HTMLElement | undefined;
  if (element) element.dataset.editing = ''; // its drawn words hide under the editor (styles.css)
  session.setEditing(id);
  const area = openEditor(layer.items, {
    ...edited.box,
    content: edited.words,
    variant: `label ${kind}`,
    oneLine: edited.oneLine,
    onInput: (words) => live.set((w) => edited.write(w, words)),
    onDone: (words, byKey) => {
      if (element) delete element.dataset.editing;
      session.setEditing(null);
      live.end(words === edited.words ? undefined : (w) => edited.write(w, words));
      onDone(byKey);
    },
  });
  area.maxLength = edited.max;
  // A shape's label is typed in its middle, where it shows: the space above the lines typed, as a padding.
  if (kind === 'shapes') {
    const centre = () => {
      Object.assign(area.style, { paddingTop: '0', minHeight: '0', height: 'auto' });
      const lines = area.scrollHeight;
      area.style.minHeight = `${edited.box.minHeight}px`;
      area.style.paddingTop = `${Math.max(0, (edited.box.minHeight - lines) / 2)}px`;
      fitEditor(area);
    };
    centre();
    area.addEventListener('input', centre);
  }
  area.setAttribute('aria-label', kind === 'frames' ? 'Frame title' : 'Label');
  return area;
}
