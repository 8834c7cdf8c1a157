/** The connection status in the header: Live, Saving…, Offline or Connecting…. */

/**
 * How long "Saving…" stays after the last edit is stored, before "Live": a drag
 * or typing writes and is answered every frame, and a status flipping twice a
 * frame is a flicker to read and a repaint of the header each time. Saying
 * "Saving…" a little longer claims nothing the server has not confirmed.
 */
export const SAVED_SHOWN_AFTER_MS = 400;

/** Shows a status in `element`, touching it only when it changes, with "Live" after "Saving…" held back a moment. */
export function heldStatus(element: HTMLElement): (text: string, kind: 'offline' | 'pending' | 'live') => void {
  let held = 0;
  const show = (text: string, kind: string) => {
    if (element.textContent !== text) element.textContent = text;
    const className = `status ${kind}`;
    if (element.className !== className) element.className = className;
  };
  return (text, kind) => {
    clearTimeout(held);
    if (kind === 'live' && element.classList.contains('pending'))
      held = window.setTimeout(() => show(text, kind), SAVED_SHOWN_AFTER_MS);
    else show(text, kind);
  };
}
