/**
 * What a render must give back: the quick entry field being typed in (its
 * text and caret), a column title with the focus (the same: a column moved by
 * key, or changed by someone else, is drawn again), and the focused card, which keeps the focus across renders
 * (someone else's edit redraws it too) and follows its card when it moves.
 */
export type FocusState = {
  quick: { column: string | undefined; value: string; caret: number | null } | null;
  title: { column: string; value: string; caret: number | null } | null;
  card: string | null;
};

/** Notes what has the focus in `lanes` before a render; `moved` is a card a key just moved, to focus after it. */
export function captureFocus(lanes: HTMLElement, moved: string | null): FocusState {
  const active = document.activeElement;
  const quick =
    active instanceof HTMLInputElement && active.classList.contains('quick-add') && lanes.contains(active)
      ? { column: active.dataset.columnId, value: active.value, caret: active.selectionStart }
      : null;
  const column =
    active instanceof HTMLInputElement && active.classList.contains('column-title') && active.closest('.column');
  const title =
    column instanceof HTMLElement && column.dataset.columnId && lanes.contains(column)
      ? {
          column: column.dataset.columnId,
          value: (active as HTMLInputElement).value,
          caret: (active as HTMLInputElement).selectionStart,
        }
      : null;
  const card =
    moved ??
    (active instanceof HTMLElement && active.classList.contains('task') && lanes.contains(active)
      ? (active.dataset.id ?? null)
      : null);
  return { quick, title, card };
}

/** Puts the focus back where `captureFocus` found it, in the rendered lanes. */
export function restoreFocus(lanes: HTMLElement, { quick, title, card }: FocusState): void {
  if (title) {
    const field = lanes.querySelector<HTMLInputElement>(
      `.column[data-column-id="${CSS.escape(title.column)}"] input.column-title`,
    );
    if (field && document.activeElement !== field) {
      if (field.value !== title.value) field.value = title.value; // not yet committed (its change comes on Enter or blur)
      field.focus();
      field.setSelectionRange(title.caret, title.caret);
    }
  }
  if (quick) {
    const field = lanes.querySelector<HTMLInputElement>(
      `.quick-add[data-column-id="${CSS.escape(quick.column ?? '')}"]`,
    );
    if (field) {
      if (field.value !== quick.value) field.value = quick.value;
      if (document.activeElement !== field) field.focus();
      field.setSelectionRange(quick.caret, quick.caret);
    }
  }
  if (card) {
    const element = lanes.querySelector<HTMLElement>(`.task[data-id="${CSS.escape(card)}"]`);
    if (element && document.activeElement !== element) element.focus();
  }
}
