/**
 * Whether the relay between instances (Redis in the shared setup) answers:
 * what readiness, the metrics and the catch-up from the journal go by. The
 * cluster implements it; the host and the app only read it.
 */
export interface RelayHealth {
  /** True while the relay answers within its bound. */
  up(): boolean;
  /** Told of every change of `up()`; returns the unsubscribe. */
  onChange(listener: (up: boolean) => void): () => void;
}
