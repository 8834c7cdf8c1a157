/**
 * A card moved by a finger. The browser's drag and drop is the mouse's; a
 * finger swiping a card scrolls the board. A finger's long press on a card (the
 * canvas's, draw/gestures.ts) lifts it, as Trello's app does: it follows the finger, the list under
 * it is marked, and letting go puts it there, the same move a mouse drop makes.
 * Held near a row's side, the row scrolls (a phone shows one column at a time);
 * near the board's top or bottom, the rows do.
 */
import { LongPress } from '../draw/gestures.js';

/** A lifted card held this near a row's side (or the board's top or bottom) scrolls it, this far a frame. */
const EDGE_PX = 40;
const SCROLL_PX = 10;

/** A pressed card, and where on it the finger went down (the card keeps that point under the finger). */
type Lifting = { card: HTMLElement; pointerId: number; grab: { x: number; y: number }; lifted: boolean };

/**
 * Lets fingers drag the cards inside `root` while `editable()`; `drop` gets the
 * card's task id, the list (`.tasks`) it was let go over and the finger's height.
 */
export function touchDragCards(
  root: HTMLElement,
  editable: () => boolean,
  drop: (taskId: string, list: HTMLElement, clientY: number) => void,
): () => void {
  let lifting: Lifting | null = null;
  const longPress = new LongPress();
  let finger = { x: 0, y: 0 };
  let scrolling = 0;
  let over: HTMLElement | null = null;
  /** The touch that ended a drag: its end is cancelled, so that no click opens the card's editor. */
  let dropped = false;

  const listAt = (x: number, y: number) =>
    document.elementFromPoint(x, y)?.closest<HTMLElement>('.tasks[data-column-id]') ?? null;
  const mark = (list: HTMLElement | null) => {
    if (list === over) return;
    over?.classList.remove('over');
    list?.classList.add('over');
    over = list;
  };
  /** Keeps the lifted card's grabbed point under the finger, wherever its list has scrolled to. */
  const follow = () => {
    if (!lifting) return;
    const { card, grab } = lifting;
    card.style.removeProperty('translate');
    const rect = card.getBoundingClientRect();
    card.style.translate = `${finger.x - grab.x - rect.left}px ${finger.y - grab.y - rect.top}px`;
  };
  /** Scrolls what the finger is at the edge of, a frame at a time, for as long as it stays there. */
  const scrollAtEdges = () => {
    scrolling = 0;
    if (!lifting?.lifted) return;
    // The row at the finger's height, even with the finger past its side (on the board's margin).
    const strip = [...root.querySelectorAll<HTMLElement>('.columns')].find((row) => {
      const box = row.getBoundingClientRect();
      return finger.y >= box.top && finger.y <= box.bottom;
    });
    const [dx, dy] = [
      edgeStep(finger.x, strip?.getBoundingClientRect(), 'x'),
      edgeStep(finger.y, root.getBoundingClientRect(), 'y'),
    ];
    const before = [strip?.scrollLeft, root.scrollTop];
    if (strip) strip.scrollLeft += dx;
    root.scrollTop += dy;
    if (strip?.scrollLeft === before[0] && root.scrollTop === before[1]) return; // not near an edge, or at its end
    follow();
    mark(listAt(finger.x, finger.y));
    scrolling = requestAnimationFrame(scrollAtEdges);
  };
  const reset = () => {
    cancelAnimationFrame(scrolling);
    scrolling = 0;
    longPress.cancel();
    if (!lifting) return;
    lifting.card.classList.remove('lifted', 'dragging');
    root.classList.remove('card-lifted');
    lifting.card.style.removeProperty('translate');
    mark(null);
    lifting = null;
  };

  const onDown = (event: PointerEvent) => {
    const card = (event.target as Element).closest<HTMLElement>('.task[data-id]');
    if (event.pointerType !== 'touch' || !card || !editable() || lifting) return;
    const rect = card.getBoundingClientRect();
    const pressed: Lifting = {
      card,
      pointerId: event.pointerId,
      grab: { x: event.clientX - rect.left, y: event.clientY - rect.top },
      lifted: false,
    };
    longPress.press(event, () => {
      pressed.lifted = true;
      // `dragging` keeps the card out of the drop's count, as a mouse drag does (drag.ts).
      card.classList.add('lifted', 'dragging');
      root.classList.add('card-lifted'); // the rows' scroll snapping would undo their scrolling at the edges
      // The lifted card lets the finger through to what is under it (styles.css); the root follows the finger instead.
      root.setPointerCapture(pressed.pointerId);
      navigator.vibrate?.(10);
    });
    lifting = pressed;
  };
  const onMove = (event: PointerEvent) => {
    if (!lifting || event.pointerId !== lifting.pointerId) return;
    if (!lifting.lifted) return longPress.move(event); // a swipe cancels it: the board scrolls
    finger = { x: event.clientX, y: event.clientY };
    follow();
    mark(listAt(event.clientX, event.clientY));
    if (!scrolling) scrollAtEdges();
  };
  const onUp = (event: PointerEvent) => {
    if (!lifting || event.pointerId !== lifting.pointerId) return;
    const { card, lifted } = lifting;
    const list = lifted ? listAt(event.clientX, event.clientY) : null;
    reset();
    if (!lifted) return;
    dropped = true;
    const id = card.dataset.id;
    if (list && id) drop(id, list, event.clientY);
  };
  // Once a card is lifted, the finger's moves are the drag's, not a scroll of the board; its long press opens no menu.
  const onTouchMove = (event: TouchEvent) => lifting?.lifted && event.preventDefault();
  const onMenu = (event: Event) => lifting && event.preventDefault();
  const onTouchEnd = (event: TouchEvent) => {
    if (!dropped) return;
    dropped = false;
    event.preventDefault();
  };

  root.addEventListener('pointerdown', onDown);
  root.addEventListener('pointermove', onMove);
  root.addEventListener('pointerup', onUp);
  root.addEventListener('pointercancel', reset);
  root.addEventListener('touchmove', onTouchMove, { passive: false });
  root.addEventListener('touchend', onTouchEnd, { passive: false });
  root.addEventListener('contextmenu', onMenu);
  return () => {
    reset();
    root.removeEventListener('pointerdown', onDown);
    root.removeEventListener('pointermove', onMove);
    root.removeEventListener('pointerup', onUp);
    root.removeEventListener('pointercancel', reset);
    root.removeEventListener('touchmove', onTouchMove);
    root.removeEventListener('touchend', onTouchEnd);
    root.removeEventListener('contextmenu', onMenu);
  };
}

/** How far to scroll for a finger at `at` within `box` along `axis`: toward the edge it is near, else 0. */
function edgeStep(at: number, box: DOMRect | undefined, axis: 'x' | 'y'): number {
  if (!box) return 0;
  const [start, end] = axis === 'x' ? [box.left, box.right] : [box.top, box.bottom];
  if (at < start + EDGE_PX) return -SCROLL_PX;
  if (at > end - EDGE_PX) return SCROLL_PX;
  return 0;
}
