/** Small DOM helpers: element builder, toasts and dialogs. */

type Attrs = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;

/** The value, or a clear error naming what the page lacks (an element the app's own markup or the browser provides). */
export function required<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`missing: ${what}`);
  return value;
}

/** Creates an element: `h('button.primary', {onclick}, 'Save')`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K | `${K}.${string}`,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const [name, ...classes] = tag.split('.');
  const element = document.createElement(name as K);
  if (classes.length) element.className = classes.join(' ');
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(key.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(key, '');
    else element.setAttribute(key, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** Hides or shows `element`, leaving it untouched when it already is (setting it anyway restyles the page). */
export function setHidden(element: HTMLElement, hidden: boolean): void {
  if (element.hidden !== hidden) element.hidden = hidden;
}

/** Whether a key went to a field being typed in, whose own keys (undo among them) come first. */
export function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return (
    !!element &&
    (element.tagName === 'INPUT' ||
      element.tagName === 'TEXTAREA' ||
      element.tagName === 'SELECT' ||
      element.isContentEditable)
  );
}

let toastArea: HTMLElement | undefined;

/** A short message at the bottom of the screen; `role=status` so screen readers hear it. */
export function toast(message: string, kind: 'info' | 'warn' | 'error' = 'info', ms = 4000): void {
  toastArea ??= document.body.appendChild(h('div.toasts', { role: 'status', 'aria-live': 'polite' }));
  const item = toastArea.appendChild(h(`div.toast.${kind}`, {}, message));
  setTimeout(() => item.remove(), ms);
}

export type DialogButton = {
  label: string;
  value: string;
  /** The form's one submit button, so Enter in a field chooses it. */
  primary?: boolean;
  /** Asked in a dialog of its own before this button closes the dialog; declining leaves it open as it was. */
  confirm?: { title: string; text: string; yes: string };
};

/**
 * Checks what the primary button submits before the dialog closes: an error's words keep it open,
 * shown beside the fields (a wrong key is typed again, not asked for anew).
 */
export type DialogCheck = () => Promise<string | null>;

/**
 * A modal dialog; resolves with the button value it was closed with (`cancel` for Escape).
 * Only the primary button submits: a form's implicit submission (Enter in a field) takes its
 * first submit button, which would otherwise be whichever button comes first, even a Delete.
 */
export function dialog(
  title: string,
  body: (Node | string)[],
  buttons: DialogButton[],
  check?: DialogCheck,
): Promise<string> {
  return new Promise((resolve) => {
    const element = h('dialog.modal', { 'aria-label': title });
    const button = (b: DialogButton) =>
      b.primary
        ? h('button.primary', { value: b.value, type: 'submit' }, b.label)
        : h(
            `button${b.confirm ? '.danger' : ''}`,
            {
              value: b.value,
              type: 'button',
              onclick: async () => {
                if (
                  b.confirm &&
                  (await dialog(
                    b.confirm.title,
                    [h('p', {}, b.confirm.text)],
                    [
                      { label: 'Cancel', value: 'cancel' },
                      { label: b.confirm.yes, value: 'ok', primary: true },
                    ],
                  )) !== 'ok'
                )
                  return;
                element.close(b.value);
              },
            },
            b.label,
          );
    const form = h(
      'form',
      { method: 'dialog' },
      h('h2', {}, title),
      ...body,
      h('div.buttons', {}, ...buttons.map(button)),
    );
    if (check) {
      const error = h('p.dialog-error', { role: 'alert', hidden: true });
      form.querySelector('.buttons')?.before(error);
      form.addEventListener('submit', async (event) => {
        event.preventDefault();
        const problem = await check();
        if (problem === null) return element.close('ok');
        error.textContent = problem;
        error.hidden = false;
        form.querySelector<HTMLInputElement>('input')?.select();
      });
    }
    element.append(form);
    element.addEventListener('close', () => {
      element.remove();
      resolve(element.returnValue || 'cancel');
    });
    document.body.append(element);
    element.showModal();
  });
}
