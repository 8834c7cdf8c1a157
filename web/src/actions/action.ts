/**
 * An action, as Excalidraw registers them: a name, the words and keys the help
 * dialog shows, the test that says a key press is this action's, and what it
 * does. One list of them per board kind feeds the keyboard (keys.ts), the
 * toolbar's buttons, the help dialog (help.ts), the Export and Zoom menus and
 * the canvas's context menu (draw/context-menu.ts).
 */
export type Action<C> = {
  readonly name: string;
  /** What it does, as the help dialog says it. */
  readonly label: string;
  /** Its keys (and any gesture that does the same), as the help dialog shows them. */
  readonly keys: string;
  /** The key a button's tooltip names, as in "Undo (Ctrl+Z)". */
  readonly shortcut?: string;
  /** Whether a key press is this action's; none: the action is a gesture or a field's own key, listed for the help only. */
  readonly keyTest?: (event: KeyboardEvent, ctx: C) => boolean;
  readonly perform?: (ctx: C, event: KeyboardEvent | null) => void;
  /** Whether a menu offers it now; none: always. */
  readonly enabled?: (ctx: C) => boolean;
  /** It changes the board: a menu leaves it out for a visitor who may only look. */
  readonly changes?: boolean;
  /** The press goes on to the actions after this one (a menu's Escape also drops the selection). */
  readonly passThrough?: boolean;
  /** Not a row of the help dialog: listed with another (Zoom out under Zoom), or a menu's own key. */
  readonly hidden?: boolean;
  /** Tested even while a field is typed in or a dialog is open. */
  readonly anywhere?: boolean;
};

/** Ctrl, or ⌘ on a Mac. */
export const modKey = (event: KeyboardEvent) => event.ctrlKey || event.metaKey;

/** The list an action of `actions` is found in by name; a name not there is a programming error. */
export function actionNamed<C>(actions: readonly Action<C>[], name: string): Action<C> {
  const action = actions.find((entry) => entry.name === name);
  if (!action) throw new Error(`no action ${name}`);
  return action;
}
