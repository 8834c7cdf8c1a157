/**
 * What an instance does when another one changed a board's record: heard on
 * the relay's event channel, or read back from the storage while the relay is
 * down (cluster/journal-catch-up.ts). Both must act alike.
 */

import type { DocumentHost } from '../host/documents/document-host.js';
import type { BoardEvents } from '../host/events/board-events.js';
import type { Registry } from '../store/board-store.js';

/** A change another instance made to a board's record. */
export type RecordEvent = 'erased' | 'lockChanged' | 'recordChanged';

export type RecordEventTargets = {
  events: BoardEvents;
  host: DocumentHost;
  /** The registry, with a re-read of a record this instance holds. */
  registry: Registry & { refresh(id: string): Promise<void> };
};

export function heardRecordEvent(event: RecordEvent, boardId: string, targets: RecordEventTargets): void {
  const { events, host, registry } = targets;
  switch (event) {
    case 'erased':
      void registry.refresh(boardId).catch(() => {});
      host.closeConnections(boardId);
      events.erased(boardId, true);
      return;
    case 'lockChanged':
      // Connections check their access again against the new record.
      void registry.refresh(boardId).then(
        () => events.lockChanged(boardId, true),
        () => events.lockChanged(boardId, true),
      );
      return;
    case 'recordChanged':
      void registry.refresh(boardId).catch(() => {});
      return;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
