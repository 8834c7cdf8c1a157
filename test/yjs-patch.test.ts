/**
 * The patch carried on Yjs (patches/yjs+*.patch, docs/upstream-patches.md,
 * issue 22): the encoder of `update` events is kept between transactions, so
 * an ordinary update allocates one buffer (the copy handed to listeners)
 * instead of three. Pinned to the release it was written against; the
 * behaviour test fails on the unpatched Yjs.
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

describe('the Yjs patch', () => {
  it(`is made for the installed yjs ${PATCHED_VERSION}, and both builds carry it`, () => {
    const { version } = JSON.parse(readFileSync(join(yjsDir, 'package.json'), 'utf8')) as { version: string };
    expect(version, 'a new Yjs release: re-check the patch against it (docs/upstream-patches.md)').toBe(PATCHED_VERSION);
    expect(readdirSync(join(root, 'patches'))).toContain(`yjs+${PATCHED_VERSION}.patch`);
    for (const build of ['yjs.mjs', 'yjs.cjs']) {
      expect(readFileSync(join(yjsDir, 'dist', build), 'utf8'), build).toContain('const takeUpdateEncoderV1 = ');
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
});
