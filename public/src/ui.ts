/** Small DOM helpers: element builder, toasts and dialogs. */

type Attrs = Record<string, string | number | boolean | ((event: any) => void) | undefined>;

/** Creates an element: `h('button.primary', {onclick}, 'Save')`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K | `${K}.${string}`, attrs: Attrs = {}, ...children: (Node | string | null | undefined | false)[]): HTMLElementTagNameMap[K] {
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

let toastArea: HTMLElement | undefined;

/** A short message at the bottom of the screen; `role=status` so screen readers hear it. */
export function toast(message: string, kind: 'info' | 'warn' | 'error' = 'info', ms = 4000): void {
  toastArea ??= document.body.appendChild(h('div.toasts', { role: 'status', 'aria-live': 'polite' }));
  const item = toastArea.appendChild(h(`div.toast.${kind}`, {}, message));
  setTimeout(() => item.remove(), ms);
}

/** A modal dialog; resolves with the button value it was closed with. */
export function dialog(title: string, body: (Node | string)[], buttons: { label: string; value: string; primary?: boolean }[]): Promise<string> {
  return new Promise((resolve) => {
    const element = h('dialog.modal', { 'aria-label': title });
    const form = h('form', { method: 'dialog' }, h('h2', {}, title), ...body, h('div.buttons', {}, ...buttons.map((b) => h(`button${b.primary ? '.primary' : ''}`, { value: b.value, type: 'submit' }, b.label))));
    element.append(form);
    element.addEventListener('close', () => {
      element.remove();
      resolve(element.returnValue || 'cancel');
    });
    document.body.append(element);
    element.showModal();
  });
}
