/**
 * The header's overflow menu: on a phone (600 px or less) the board's secondary
 * buttons (Copy link, the lock's, the theme toggle) fold behind one "⋯" button,
 * so the header is one row; on a wider screen the menu's list is
 * `display: contents` and its buttons sit in the header as before (styles.css,
 * header menu). The list is a popover: the platform closes it on Escape and on
 * a press outside, and hands focus back to the button.
 */
import { h } from './ui.js';

let menus = 0;

/** Wraps `items` (buttons kept as they are, with their test ids and names) in the header's menu. */
export function headerMenu(...items: HTMLElement[]): HTMLElement {
  const id = `header-menu-${++menus}`;
  const list = h(
    'div.header-menu-list',
    { id, popover: 'auto', role: 'group', 'aria-label': 'Board actions' },
    ...items,
  );
  const toggle = h(
    'button.header-menu-toggle',
    {
      type: 'button',
      popovertarget: id,
      'aria-label': 'Board actions',
      title: 'Board actions',
      'data-testid': 'header-menu',
    },
    '⋯',
  );
  // A button that acts (Copy link, Lock, the theme) closes the menu, as a menu item does; its dialog or toast shows next.
  list.addEventListener('click', (event) => {
    if ((event.target as HTMLElement).closest('button') && list.matches(':popover-open')) list.hidePopover();
  });
  return h('span.header-menu', {}, toggle, list);
}
