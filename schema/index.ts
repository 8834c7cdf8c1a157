/** The one validator: every surface (REST, MCP, WebSocket, the browser app) imports from here. */

export * from './batch.js';
export * from './board.js';
export * from './collab.js';
export * from './common.js';
export * from './draw.js';
export * from './history.js';
export * from './json-schema.js';
export * from './limits.js';
export * from './mcp.js';
export * from './mcp-output.js';
export * from './pages.js';
export * from './stored.js';
export * from './todo.js';
export * from './view-links.js';
export * from './ws.js';
