/**
 * The MCP protocol revisions /mcp speaks, said once for the handshake, the
 * server card, llms.txt and docs/api.md: the current one statelessly, the 2025
 * ones in sessions. Not the SDK's list, which also names 2024 revisions.
 */
export const MODERN_REVISION = '2026-07-28';
export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
/** Newest first: the server card's `protocolVersion` is the first. */
export const MCP_PROTOCOL_VERSIONS = [MODERN_REVISION, ...LEGACY_REVISIONS] as const;
