/**
 * Light and dark: the system's scheme until the person picks one with the
 * header's toggle, which this browser then remembers (localStorage). The choice
 * is `data-theme` on <html>; without it the stylesheet follows
 * `prefers-color-scheme`.
 */
import { h } from './ui.js';

export type Theme = 'light' | 'dark';

const STORAGE_KEY = 'boards.theme';
const systemDark = matchMedia('(prefers-color-scheme: dark)');

function stored(): Theme | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null; // storage refused (a sandboxed embed): the system's scheme
  }
}

/** The person's choice; kept here too, for a browser that refuses storage. */
let choice: Theme | null = stored();

/** The scheme the page shows now. */
export function currentTheme(): Theme {
  return choice ?? (systemDark.matches ? 'dark' : 'light');
}

/** What draws in colours CSS cannot reach (Mermaid's SVG), told when the scheme shown changes. */
const listeners = new Set<(theme: Theme) => void>();
let shown: Theme | null = null;

/** Calls `listener` with the new scheme whenever the page switches between light and dark. */
export function onThemeChange(listener: (theme: Theme) => void): void {
  listeners.add(listener);
}

/** Sets `data-theme` from the choice and relabels every toggle; called at start, before anything is drawn. */
export function applyTheme(): void {
  if (choice) document.documentElement.dataset.theme = choice;
  else delete document.documentElement.dataset.theme;
  for (const button of document.querySelectorAll<HTMLButtonElement>('.theme-toggle')) label(button);
  const theme = currentTheme();
  if (shown && theme !== shown) for (const listener of listeners) listener(theme);
  shown = theme;
}

systemDark.addEventListener('change', () => applyTheme());
// A choice made in another page of this site (another tab, or the landing page around an embedded example) is this page's too.
addEventListener('storage', (event) => {
  if (event.key !== STORAGE_KEY && event.key !== null) return;
  choice = stored();
  applyTheme();
});

function label(button: HTMLButtonElement): void {
  const dark = currentTheme() === 'dark';
  button.textContent = dark ? '☀' : '☾';
  button.title = dark ? 'Switch to the light theme' : 'Switch to the dark theme';
  button.setAttribute('aria-label', button.title);
}

/** The header's button: switches to the other scheme and remembers it in this browser. */
export function themeToggle(): HTMLButtonElement {
  const button = h('button.theme-toggle', {
    type: 'button',
    'data-testid': 'theme-toggle',
    onclick: () => {
      choice = currentTheme() === 'dark' ? 'light' : 'dark';
      try {
        localStorage.setItem(STORAGE_KEY, choice);
      } catch {
        // not remembered: the scheme still switches for this page
      }
      applyTheme();
    },
  });
  label(button);
  return button;
}
