/**
 * The other instances as this one hears them on the relay. An instance cut
 * off from Redis while this one is not relays nothing, and this one's own
 * connection cannot tell: its heartbeats stop arriving. While a peer is
 * silent this instance catches up from the storage as if its own relay were
 * down (cluster/journal-catch-up.ts), and the peer's return is a hand-over.
 */

/** How often an instance says it is there (RELAY_HEARTBEAT_MS). */
export const HEARTBEAT_MS = 500;
/** A peer silent for this many heartbeats is taken to be cut off from the relay. */
const SILENT_HEARTBEATS = 3;
/** A peer silent this long is taken to be gone (killed, or cut off for long), and no longer waited for. */
const GONE_MS = 60_000;

export class RelayPeers {
  /** When each peer was last heard. */
  private readonly heard = new Map<string, number>();

  private readonly silentMs: number;

  constructor(
    private readonly now: () => number = Date.now,
    readonly heartbeatMs = HEARTBEAT_MS,
  ) {
    this.silentMs = SILENT_HEARTBEATS * heartbeatMs;
  }

  heardFrom(instanceId: string): void {
    this.heard.set(instanceId, this.now());
  }

  /** The peer stopped on purpose: nothing to wait for. */
  stopped(instanceId: string): void {
    this.heard.delete(instanceId);
  }

  /** Whether every peer not yet taken to be gone was heard lately. */
  allHeard(): boolean {
    const now = this.now();
    let all = true;
    for (const [instanceId, at] of this.heard) {
      if (now - at > GONE_MS) this.heard.delete(instanceId);
      else if (now - at > this.silentMs) all = false;
    }
    return all;
  }
}
