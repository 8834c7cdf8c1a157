/** A toolbar menu (Export, Zoom): a `<details>` whose entries are canvas actions, that closes as a menu does. */
import { h } from '../ui.js';

/** One entry: an action's words and key, what it does, and whether it can be done now. */
export type MenuEntry = {
  label: string;
  shortcut?: string;
  perform: () => void;
  enabled?: () => boolean;
  /** Attributes that name the entry for styles and tests. */
  data?: Record<string, string>;
};

/**
 * A `<details>` menu closes as a menu does: on Escape (the close-menu action,
 * actions/draw.ts), on a press anywhere outside it, and when focus leaves it (a
 * dialog opening over it takes the focus). Returns what unbinds it; it unbinds
 * itself too once the menu has left the page.
 */
function closesAsAMenu(menu: HTMLDetailsElement): () => void {
  const unbind = () => {
    document.removeEventListener('pointerdown', onPress, true);
    menu.removeEventListener('focusout', onFocusOut);
  };
  const onPress = (event: PointerEvent) => {
    if (!menu.isConnected && !menu.open) unbind();
    else if (menu.open && !menu.contains(event.target as Node)) menu.open = false;
  };
  const onFocusOut = (event: FocusEvent) => {
    const next = event.relatedTarget as Node | null;
    if (menu.open && next && !menu.contains(next)) menu.open = false;
  };
  document.addEventListener('pointerdown', onPress, true);
  menu.addEventListener('focusout', onFocusOut);
  return unbind;
}

/** A menu of `entries` under `summary`; an entry closes the menu and does its action. */
export function toolbarMenu(
  className: string,
  summary: HTMLElement,
  entries: readonly MenuEntry[],
): { menu: HTMLDetailsElement; unbind: () => void } {
  const buttons = entries.map((entry) =>
    h(
      'button',
      {
        type: 'button',
        ...entry.data,
        title: entry.shortcut ? `${entry.label} (${entry.shortcut})` : undefined,
        onclick: () => {
          menu.open = false;
          entry.perform();
        },
      },
      h('span', {}, entry.label),
      entry.shortcut ? h('kbd', {}, entry.shortcut) : '',
    ),
  );
  const list = h('div.menu-list', {}, ...buttons);
  const menu = h(
    `details.toolbar-menu.${className}`,
    {
      ontoggle: () => {
        entries.forEach((entry, index) => {
          if (entry.enabled) buttons[index].disabled = !entry.enabled();
        });
        // Opens below its button, shifted left as far as it must to stay on the screen (a phone's toolbar wraps).
        list.style.left = '0';
        const overflow = list.getBoundingClientRect().right - (document.documentElement.clientWidth - 8);
        if (overflow > 0) list.style.left = `${-overflow}px`;
      },
    },
    summary,
    list,
  ) as HTMLDetailsElement;
  return { menu, unbind: closesAsAMenu(menu) };
}
