/**
 * The Node versions this service supports, as package.json `engines` says:
 * `^22.20 || ^24.12 || >=26`, Node 26 recommended. That is the narrowest range
 * any installed dependency declares (rollup's lzma binding under the app's build,
 * and dependency-cruiser, which skips Node 25), so `npm install` on any of them
 * prints no EBADENGINE.
 */
export const SUPPORTED_NODE = '^22.20 || ^24.12 || >=26';

/** The first supported minor of each release line below 26 (odd lines, 23 and 25, are never supported). */
const LINE_FLOORS: Record<number, number> = { 22: 20, 24: 12 };

/** One line saying what is needed when `version` (as in `process.versions.node`) is not supported; undefined when it is. */
export function unsupportedNodeMessage(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const floor = LINE_FLOORS[major];
  if (major >= 26 || (floor !== undefined && minor >= floor)) return undefined;
  return (
    `board service: Node 22.20+, 24.12+ or 26+ is needed (Node 26 recommended); this is Node ${version}. ` +
    'Run `source scripts/use-node.sh` first to use one from the npm registry.'
  );
}
