/** The one validator: every surface (REST, MCP, WebSocket, the browser app) imports from here. */
export * from './limits.js';
export * from './common.js';
export * from './draw.js';
export * from './todo.js';
export * from './board.js';
export * from './mcp.js';
export * from './mcp-output.js';
export * from './stored.js';
export * from './ws.js';
export * from './batch.js';
export * from './json-schema.js';
export * from './collab.js';
export * from './history.js';
export * from './pages.js';
