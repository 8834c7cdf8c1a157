/**
 * The patch carried on Yjs (patches/yjs+*.patch, docs/upstream-patches.md,
 * issue 22): the encoder of `update` events is kept between transactions, so
 * an ordinary update allocates one buffer (the copy handed to listeners)
 * instead of three; and a transaction makes its `afterState`, `meta` and three
 * subdocument sets on first use, not up front. Pinned to the release it was
 * written against; the allocation tests fail on the unpatched Yjs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';

const PATCHED_VERSION = '13.6.33';
const root = join(import.meta.dirname, '..');
const yjsDir = join(root, 'node_modules', 'yjs');

/** Runs `work` with the global `Uint8Array` counting the buffers made by length (`new Uint8Array(n)`). */
function countingNewBuffers(work: () => void): number {
  const Original = globalThis.Uint8Array;
  let made = 0;
  class Counting extends Original {
    constructor(...args: unknown[]) {
      super(...(args as []));
      if (typeof args[0] === 'number') made++;
    }
  }
  globalThis.Uint8Array = Counting as unknown as Uint8ArrayConstructor;
  try {
    work();
  } finally {
    globalThis.Uint8Array = Original;
  }
  return made;
}

/** Runs `work` with the global `Map` and `Set` counting the collections made. */
function countingNewCollections(work: () => void): { maps: number; sets: number } {
  const [OriginalMap, OriginalSet] = [globalThis.Map, globalThis.Set];
  const made = { maps: 0, sets: 0 };
  class CountingMap<K, V> extends OriginalMap<K, V> {
    constructor(entries?: readonly (readonly [K, V])[] | null) {
      super(entries);
      made.maps++;
    }
  }
  class CountingSet<T> extends OriginalSet<T> {
    constructor(values?: readonly T[] | null) {
      super(values);
      made.sets++;
    }
  }
  globalThis.Map = CountingMap as unknown as MapConstructor;
  globalThis.Set = CountingSet as unknown as SetConstructor;
  try {
    work();
  } finally {
    globalThis.Map = OriginalMap;
    globalThis.Set = OriginalSet;
  }
  return made;
}

describe('the Yjs patch', () => {
  it(`is made for the installed yjs ${PATCHED_VERSION}, and both builds carry it`, () => {
    const { version } = JSON.parse(readFileSync(join(yjsDir, 'package.json'), 'utf8')) as { version: string };
    expect(version, 'a new Yjs release: re-check the patch against it (docs/upstream-patches.md)').toBe(
      PATCHED_VERSION,
    );
    expect(readdirSync(join(root, 'patches'))).toContain(`yjs+${PATCHED_VERSION}.patch`);
    for (const build of ['yjs.mjs', 'yjs.cjs']) {
      const source = readFileSync(join(yjsDir, 'dist', build), 'utf8');
      expect(source, build).toContain('const takeUpdateEncoderV1 = ');
      expect(source, build).toContain('get subdocsLoaded () {');
      expect(source, build).toContain('// A transaction of one client (nearly all of them): nothing to order.');
    }
  });

  it('an ordinary update allocates only the copy it hands to listeners', () => {
    const doc = new Y.Doc();
    const updates: Uint8Array[] = [];
    doc.on('update', (update: Uint8Array) => updates.push(update));
    const items = doc.getMap('items');
    // The first transaction may make the kept encoder.
    items.set('a', 'warm-up');
    // A value long enough to outgrow a fresh encoder's 100 bytes.
    const content = 'x'.repeat(300);
    for (let i = 0; i < 5; i++) {
      const made = countingNewBuffers(() => items.set(`note-${i}`, `${content} ${i}`));
      expect(made, `transaction ${i}: unpatched Yjs makes 3 (a fresh encoder, its growth, the copy)`).toBe(1);
    }
    expect(updates).toHaveLength(6);
  });

  it('every update stays whole and its own, across small and very large transactions', () => {
    const doc = new Y.Doc();
    const updates: Uint8Array[] = [];
    const copies: Uint8Array[] = [];
    doc.on('update', (update: Uint8Array) => {
      updates.push(update);
      copies.push(update.slice());
    });
    const items = doc.getMap('items');
    items.set('small', 1);
    // Larger than the kept encoder's room: it is dropped, and the next one starts afresh.
    items.set('large', 'y'.repeat(100_000));
    items.set('after', 'z'.repeat(500));
    doc.transact(() => {
      for (let i = 0; i < 50; i++) items.set(`k${i}`, i);
    });
    items.delete('small');

    // No later transaction wrote into an update already handed out.
    expect(updates.map((update) => Array.from(update))).toEqual(copies.map((copy) => Array.from(copy)));
    const replica = new Y.Doc();
    for (const update of updates) Y.applyUpdate(replica, update);
    expect(replica.getMap('items').toJSON()).toEqual(items.toJSON());
    expect(replica.getMap('items').get('large')).toHaveLength(100_000);
  });

  it('a transaction makes no afterState, meta or subdocument set it does not use', () => {
    const doc = new Y.Doc();
    doc.on('update', () => {});
    const items = doc.getMap('items');
    items.set('a', 'warm-up');
    const made = countingNewCollections(() => items.set('b', 'one item'));
    // Unpatched Yjs 13.6.33 makes 9 maps and 6 sets here: the after state up front (replaced at the cleanup),
    // the meta map and the three subdocument sets, and the state vector the update's encoding built only to
    // list the document's clients, are the 3 maps and 3 sets the patch leaves out.
    expect(made).toEqual({ maps: 6, sets: 3 });
  });

  it('afterState, meta and the subdocument sets read and write as before', () => {
    const doc = new Y.Doc();
    const seen: { inside?: number; after?: number; meta?: unknown }[] = [];
    doc.on('afterTransaction', (transaction: Y.Transaction) =>
      seen.push({ after: transaction.afterState.get(doc.clientID), meta: transaction.meta.get('note') }),
    );
    doc.transact((transaction) => {
      doc.getMap('items').set('a', 1);
      expect(transaction.afterState.size).toBe(0); // not computed until the cleanup, as before
      transaction.meta.set('note', 'kept');
    });
    expect(seen).toEqual([{ after: 1, meta: 'kept' }]);

    const events: { added: number; loaded: number; removed: number }[] = [];
    doc.on('subdocs', ({ added, loaded, removed }: { added: Set<Y.Doc>; loaded: Set<Y.Doc>; removed: Set<Y.Doc> }) =>
      events.push({ added: added.size, loaded: loaded.size, removed: removed.size }),
    );
    const subdoc = new Y.Doc();
    doc.getMap('items').set('doc', subdoc);
    expect(doc.getSubdocs().has(subdoc)).toBe(true);
    doc.getMap('items').delete('doc');
    expect(doc.getSubdocs().has(subdoc)).toBe(false);
    doc.getMap('items').set('a', 2); // a transaction with no subdocument: no event
    // As unpatched: the removal, then the removed subdocument's destroy (a transaction of its own) says it again.
    expect(events).toEqual([
      { added: 1, loaded: 1, removed: 0 },
      { added: 0, loaded: 0, removed: 1 },
      { added: 0, loaded: 0, removed: 1 },
    ]);
  });

  it('updates and whole states of several clients encode as before: higher client ids first', () => {
    const docs = [1, 2, 3].map((clientID) => Object.assign(new Y.Doc(), { clientID }));
    const updates: Uint8Array[] = [];
    docs[0].on('update', (update: Uint8Array) => updates.push(update));
    for (const doc of docs) doc.getMap('items').set(`by-${doc.clientID}`, doc.clientID);
    for (const doc of docs.slice(1)) Y.applyUpdate(docs[0], Y.encodeStateAsUpdate(doc));
    // One transaction of the first doc touching what three clients wrote: its update lists one client.
    docs[0].transact(() => {
      docs[0].getMap('items').set('by-1', 'again');
      docs[0].getMap('items').delete('by-3');
    });
    const whole = Y.encodeStateAsUpdate(docs[0]);
    const replica = new Y.Doc();
    Y.applyUpdate(replica, whole);
    expect(replica.getMap('items').toJSON()).toEqual({ 'by-1': 'again', 'by-2': 2 });
    // The whole state lists clients 3, 2, 1 in that order, as Yjs always wrote them.
    const decoded = Y.decodeUpdate(whole);
    expect([...new Set(decoded.structs.map((struct) => struct.id.client))]).toEqual([3, 2, 1]);
    const fromUpdates = new Y.Doc();
    for (const update of updates) Y.applyUpdate(fromUpdates, update);
    expect(fromUpdates.getMap('items').toJSON()).toEqual(replica.getMap('items').toJSON());
  });
});
