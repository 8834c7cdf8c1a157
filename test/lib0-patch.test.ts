/**
 * The patch carried on lib0 (patches/lib0+*.patch, docs/upstream-patches.md,
 * issue 22): `emit` on lib0's observables (every Y.Doc is one) copies its
 * listeners only when there are two or more, and allocates nothing for an
 * event nobody listens to. A Yjs transaction emits seven document events,
 * most with no listener or one. Pinned to the release it was written against;
 * the allocation test fails on the unpatched lib0, and the order tests hold
 * the semantics the copy exists for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ObservableV2 } from 'lib0/observable';
import * as Y from 'yjs';

const PATCHED_VERSION = '0.2.120';
const root = join(import.meta.dirname, '..');
const lib0Dir = join(root, 'node_modules', 'lib0');

/** Runs `work` with the global `Map` counting the maps made. */
function countingNewMaps(work: () => void): number {
  const Original = globalThis.Map;
  let made = 0;
  class Counting<K, V> extends Original<K, V> {
    constructor(entries?: readonly (readonly [K, V])[] | null) {
      super(entries);
      made++;
    }
  }
  globalThis.Map = Counting as unknown as MapConstructor;
  try {
    work();
  } finally {
    globalThis.Map = Original;
  }
  return made;
}

type Events = { tick: (n: number) => void };

describe('the lib0 patch', () => {
  it(`is made for the installed lib0 ${PATCHED_VERSION}, and both builds carry it`, () => {
    const { version } = JSON.parse(readFileSync(join(lib0Dir, 'package.json'), 'utf8')) as { version: string };
    expect(version, 'a new lib0 release: re-check the patch against it (docs/upstream-patches.md)').toBe(
      PATCHED_VERSION,
    );
    expect(readdirSync(join(root, 'patches'))).toContain(`lib0+${PATCHED_VERSION}.patch`);
    for (const build of ['observable.js', 'dist/observable.cjs']) {
      const source = readFileSync(join(lib0Dir, build), 'utf8');
      // Both classes (ObservableV2 and the deprecated Observable) carry it.
      expect(source.split('if (observers.size === 1) {').length - 1, build).toBe(2);
    }
  });

  it('an event nobody listens to makes no map', () => {
    const doc = new Y.Doc();
    // Unpatched, emit makes an empty map to copy nobody from.
    expect(countingNewMaps(() => doc.emit('afterAllTransactions', [doc, []]))).toBe(0);
    const observable = new ObservableV2<Events>();
    const listener = () => {};
    observable.on('tick', listener);
    observable.off('tick', listener);
    expect(countingNewMaps(() => observable.emit('tick', [1]))).toBe(0);
  });

  it('a lone listener is called once with the arguments, and one it subscribes waits for the next event', () => {
    const observable = new ObservableV2<Events>();
    const calls: string[] = [];
    const later = (n: number) => calls.push(`later ${n}`);
    observable.on('tick', (n) => {
      calls.push(`first ${n}`);
      observable.on('tick', later);
    });
    observable.emit('tick', [1]);
    expect(calls).toEqual(['first 1']);
    observable.emit('tick', [2]);
    expect(calls).toEqual(['first 1', 'first 2', 'later 2']);
  });

  it('several listeners are called in the order they subscribed, each once, even when one unsubscribes another', () => {
    const observable = new ObservableV2<Events>();
    const calls: string[] = [];
    const second = (n: number) => calls.push(`second ${n}`);
    observable.on('tick', (n) => {
      calls.push(`first ${n}`);
      observable.off('tick', second); // the copy was made before: second still hears this event
    });
    observable.on('tick', second);
    observable.once('tick', (n) => calls.push(`once ${n}`));
    observable.emit('tick', [1]);
    observable.emit('tick', [2]);
    expect(calls).toEqual(['first 1', 'second 1', 'once 1', 'first 2']);
  });

  it('a Y.Doc still tells its update listeners of every transaction', () => {
    const doc = new Y.Doc();
    const updates: Uint8Array[] = [];
    doc.on('update', (update: Uint8Array) => updates.push(update));
    doc.getMap('items').set('a', 1);
    doc.getMap('items').set('b', 2);
    const replica = new Y.Doc();
    for (const update of updates) Y.applyUpdate(replica, update);
    expect(replica.getMap('items').toJSON()).toEqual({ a: 1, b: 2 });
  });
});
