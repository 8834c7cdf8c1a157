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
  let held: { timer: number; text: string } | null = null;
  const show = (text: string, kind: string) => {
    if (element.textContent !== text) element.textContent = text;
    const className = `status ${kind}`;
    if (element.className !== className) element.className = className;
  };
  return (text, kind) => {
    const holding = kind === 'live' && element.classList.contains('pending');
    // Asked again for the same (each cursor move of someone here refreshes the header): the hold runs on, not again.
    if (holding && held?.text === text) return;
    if (held) clearTimeout(held.timer);
    held = null;
    if (!holding) return show(text, kind);
    const timer = window.setTimeout(() => {
      held = null;
      show(text, kind);
    }, SAVED_SHOWN_AFTER_MS);
    held = { timer, text };
  };
}
