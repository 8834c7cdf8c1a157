/**
 * Entry point. It checks the runtime before anything else is loaded: on an
 * unsupported Node a native module (better-sqlite3) would fail with a stack
 * trace far from the cause, so this file imports nothing statically and stops
 * with one line instead.
 */
import { unsupportedNodeMessage } from './node-version.js';

const refusal = unsupportedNodeMessage(process.versions.node);
if (refusal) {
  console.error(refusal);
  process.exit(1);
}
await import('./serve.js');
