/** The document layout's merges (docs/document-model.md "What merges how"), on two copies of one board exchanging updates. */
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { moveItem, upsertText } from '../mutations/draw.js';
import { localWrite } from '../mutations/local-write.js';
import type { TextItem } from './document-model.js';
import { boardMaps, migrateLayout } from './document-model.js';
import { textSplice } from './item-map.js';

const size = () => ({ width: 120, height: 40 });
const as = (author: string) => ({ boardId: 'board', mode: 'draw' as const, author, textSize: size });

/** Two copies of one board holding `content` in one text, as two people's browsers do once synced. */
function twoCopies(content: string): { a: Y.Doc; b: Y.Doc; id: string } {
  const a = new Y.Doc();
  const { id } = localWrite(a, as('user:a'), (w) => upsertText(w, { x: 10, y: 20, content }), 'a');
  const b = new Y.Doc();
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
  return { a, b, id };
}

/** Each copy receives what the other changed meanwhile (the order of a reconnect does not matter). */
function exchange(a: Y.Doc, b: Y.Doc): void {
  const [fromA, fromB] = [
    Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)),
    Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)),
  ];
  Y.applyUpdate(b, fromA);
  Y.applyUpdate(a, fromB);
}

const text = (doc: Y.Doc, id: string) => boardMaps(doc).texts.get(id) as TextItem;

describe('two people on one item', () => {
  it('a move on one copy and an edit of the content on the other both survive', () => {
    const { a, b, id } = twoCopies('Online 2');
    localWrite(a, as('user:a'), (w) => moveItem(w, 'texts', id, { x: 10, y: 220 }), 'a');
    localWrite(b, as('user:b'), (w) => upsertText(w, { id, x: 10, y: 20, content: 'Offline words' }), 'b');
    exchange(a, b);
    for (const doc of [a, b]) expect(text(doc, id)).toMatchObject({ x: 10, y: 220, content: 'Offline words' });
  });

  it('typing in one text at the same time merges character by character', () => {
    const { a, b, id } = twoCopies('plan');
    localWrite(a, as('user:a'), (w) => upsertText(w, { id, x: 10, y: 20, content: 'the plan' }), 'a');
    localWrite(b, as('user:b'), (w) => upsertText(w, { id, x: 10, y: 20, content: 'plan for May' }), 'b');
    exchange(a, b);
    expect(text(a, id).content).toBe('the plan for May');
    expect(text(b, id).content).toBe('the plan for May');
  });

  it('a write that changes nothing makes no update', () => {
    const { a, id } = twoCopies('same');
    const updates: Uint8Array[] = [];
    a.on('update', (update: Uint8Array) => updates.push(update));
    const item = text(a, id);
    localWrite(a, as('user:a'), (w) => w.maps.texts.set(id, { ...item }), 'a');
    expect(updates).toEqual([]);
  });
});

describe('a board stored in the former layout', () => {
  it('reads as it is, and reads the same once rewritten as nested maps', () => {
    const doc = new Y.Doc();
    const former = {
      id: 't1',
      x: 1,
      y: 2,
      content: 'old',
      author: 'ai:rest',
      last_updated: '2026-01-01T00:00:00.000Z',
    };
    doc.getMap('texts').set('t1', former);
    expect(boardMaps(doc).texts.get('t1')).toEqual(former);
    let migrated = false;
    doc.transact(() => {
      migrated = migrateLayout(doc);
    });
    expect(migrated).toBe(true);
    expect(doc.getMap('texts').get('t1')).toBeInstanceOf(Y.Map);
    expect(boardMaps(doc).texts.get('t1')).toEqual(former);
  });
});

describe('textSplice', () => {
  it('replaces the one range where two strings differ', () => {
    expect(textSplice('the plan', 'the big plan')).toEqual({ start: 4, end: 4, text: 'big ' });
    expect(textSplice('abc', 'abc')).toEqual({ start: 3, end: 3, text: '' });
  });

  it('never splits a surrogate pair', () => {
    // 😀 and 😃 share their high surrogate: the range must take both halves.
    expect(textSplice('a😀b', 'a😃b')).toEqual({ start: 1, end: 3, text: '😃' });
  });
});
