/**
 * Which mode a Yjs client's items are checked against. In the shared setup the
 * instance's cached registry record can lag behind another instance's mode
 * switch, whose document update may arrive first; the race cannot be forced
 * from outside, so the rule is checked here on a real Y.Doc.
 */

import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { boardMaps } from '../board/model/document-model.js';
import { attachCompensator, type CompensationContext, type Repair } from '../host/documents/compensation.js';

const stamp = { author: 'user:c', last_updated: '2026-01-01T00:00:00.000Z' };
const column = { id: 'c1', title: 'To do', sort: 0, lane: 0, ...stamp };
const task = { id: 't1', column_id: 'c1', name: 'a task', sort: 0, done: false, ...stamp };

/** A server document whose cached registry record says `cachedMode`; returns what a client transaction leads to. */
function board(cachedMode: CompensationContext['mode']) {
  const doc = new Y.Doc();
  const repairs: Repair[] = [];
  attachCompensator(
    doc,
    () => ({ mode: cachedMode, blobExists: () => false }),
    (_origin, made) => repairs.push(...made),
  );
  const fromServer = (change: () => void) => doc.transact(change, { source: 'local' });
  const fromClient = (change: () => void) => doc.transact(change, { source: 'connection', connection: {} });
  return { doc, repairs, fromServer, fromClient };
}

describe('the mode a client is checked against', () => {
  it("is the document's own mirror when the cached record lags behind a switch", () => {
    const { doc, repairs, fromServer, fromClient } = board('draw');
    fromServer(() => {
      doc.getMap('meta').set('mode', 'todo');
      doc.getMap('columns').set('c1', column);
    });
    fromClient(() => doc.getMap('tasks').set('t1', task));
    expect(repairs).toEqual([]);
    expect(boardMaps(doc).tasks.get('t1')).toEqual(task);
  });

  it("is never what the client's own transaction writes to meta.mode", () => {
    const { doc, repairs, fromServer, fromClient } = board('draw');
    fromServer(() => doc.getMap('meta').set('mode', 'draw'));
    fromClient(() => {
      doc.getMap('meta').set('mode', 'todo');
      doc.getMap('columns').set('c1', column);
    });
    expect(repairs.map((repair) => `${repair.kind}/${repair.id}/${repair.action}`).sort()).toEqual([
      'columns/c1/removed',
      'meta/mode/restored',
    ]);
    expect(doc.getMap('meta').get('mode')).toBe('draw');
    expect(doc.getMap('columns').size).toBe(0);
  });

  it('is the registry record when the document mirrors none', () => {
    const { doc, repairs, fromClient } = board('draw');
    fromClient(() => doc.getMap('columns').set('c1', column));
    expect(repairs).toMatchObject([{ kind: 'columns', id: 'c1', action: 'removed' }]);
  });
});
