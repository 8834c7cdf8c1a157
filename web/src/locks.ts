/** Locking a board, entering a key for one, and unlocking it. */
import { isViewToken } from '../../schema/view-token.js';
import { ApiError, api, keys } from './api.js';
import { dialog, h, toast } from './ui.js';

/** Whether `key` opens the board; a view token cannot verify a key (a write), so its read with the key is the test. */
async function keyOpens(boardId: string, key: string): Promise<boolean> {
  if (!isViewToken(boardId))
    return (await api<{ ok: boolean }>('POST', `/api/boards/${boardId}/verify-key`, { key })).ok;
  try {
    await api('GET', `/api/boards/${boardId}/meta`, undefined, undefined, { 'x-board-key': key });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return false;
    throw error;
  }
}

/** Asks for the key of a locked board, checks it, and keeps it for this browser session. */
export async function askForKey(boardId: string, why: string): Promise<boolean> {
  const input = h('input', {
    name: 'key',
    autocomplete: 'off',
    pattern: '[a-zA-Z0-9]{6}|[a-zA-Z0-9]{8}',
    autocapitalize: 'none',
    spellcheck: 'false',
    placeholder: '8 letters and digits',
    'aria-label': 'Access key',
  });
  // A wrong key is said beside the field, which stays open for another try.
  const check = async (): Promise<string | null> => {
    const key = input.value.trim().toLowerCase();
    try {
      if (!(await keyOpens(boardId, key))) return 'That key does not open this board. Check it and try again.';
      keys.set(boardId, key);
      return null;
    } catch (error) {
      return error instanceof ApiError ? error.message : 'The key could not be checked.';
    }
  };
  const answer = await dialog(
    'This board is locked',
    [h('p', {}, why), input],
    [
      { label: 'Cancel', value: 'cancel' },
      { label: 'Open', value: 'ok', primary: true },
    ],
    check,
  );
  return answer === 'ok';
}

/** Locks the board (write: others read only; all: others cannot even read) and shows the key once. */
export async function lockBoard(boardId: string, currentMode: string | null): Promise<string | null> {
  const write = h('input', { type: 'radio', name: 'mode', value: 'write', checked: currentMode !== 'all' });
  const all = h('input', { type: 'radio', name: 'mode', value: 'all', checked: currentMode === 'all' });
  const answer = await dialog(
    currentMode ? 'Change the lock' : 'Lock this board',
    [
      h('label.choice', {}, write, ' Others can look but not change anything'),
      h('label.choice', {}, all, ' Others cannot open it at all'),
    ],
    [
      { label: 'Cancel', value: 'cancel' },
      { label: currentMode ? 'Change' : 'Lock', value: 'ok', primary: true },
    ],
  );
  if (answer !== 'ok') return null;
  const mode = all.checked ? 'all' : 'write';
  try {
    const result = await api<{ mode: string; key?: string }>('POST', `/api/boards/${boardId}/lock`, { mode }, boardId);
    const { key } = result;
    if (key) {
      keys.set(boardId, key);
      const code = h('code.key', {}, key);
      const copy = h(
        'button',
        { type: 'button', onclick: () => navigator.clipboard?.writeText(key).then(() => toast('Key copied.')) },
        'Copy',
      );
      await dialog(
        'Keep this key',
        [
          h(
            'p',
            {},
            'This is the only time the key is shown. Without it nobody, you included, can change the lock or unlock the board: it cannot be recovered.',
          ),
          h('p.keyline', {}, code, ' ', copy),
        ],
        [{ label: 'I have saved it', value: 'ok', primary: true }],
      );
    }
    return result.mode;
  } catch (error) {
    toast(error instanceof ApiError ? error.message : 'The board could not be locked.', 'error');
    return null;
  }
}

export async function unlockBoard(boardId: string): Promise<boolean> {
  try {
    await api('POST', `/api/boards/${boardId}/unlock`, undefined, boardId);
    keys.forget(boardId);
    toast('The board is unlocked.');
    return true;
  } catch (error) {
    toast(error instanceof ApiError ? error.message : 'The board could not be unlocked.', 'error');
    return false;
  }
}
