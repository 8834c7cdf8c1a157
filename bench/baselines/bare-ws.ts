/** Baseline for idle WebSocket connections: a bare `ws` server that accepts and holds them. Prints its URL. */
import { WebSocketServer } from 'ws';

const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
server.on('listening', () => {
  const { port } = server.address() as { port: number };
  console.log(`ready at ws://127.0.0.1:${port}`);
});
