/**
 * Baseline for the fan-out benchmark: a plain Hocuspocus server with no
 * façade (no persistence, no rules, no JSON channel). Prints its port.
 */
import { Server } from '@hocuspocus/server';

const server = new Server({ port: 0, address: '127.0.0.1', quiet: true, stopOnSignals: true });
await server.listen();
console.log(`ready at ws://127.0.0.1:${server.address.port}`);
