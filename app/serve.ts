/** Builds the server from the configuration, listens, and stops cleanly on SIGTERM/SIGINT (loaded by main.ts once the runtime is known to be supported). */
import { setTimeout as sleep } from 'node:timers/promises';
import { format } from 'node:util';
import { buildServer } from './build-server.js';
import { loadConfig } from './config.js';

const config = loadConfig();
const server = await buildServer(config);
const url = await server.listen();
// Hocuspocus prints its hooks' and connections' errors with console.error: they become rate-limited JSON lines.
console.error = (...args: unknown[]) =>
  server.faults(
    'hocuspocus',
    args.find((arg) => arg instanceof Error),
    { detail: format(...args).split('\n')[0] },
  );

/**
 * SIGTERM (an orchestrator rolling the instance) drains first: /readyz turns
 * 503 at once so the load balancer stops sending traffic, while requests go on
 * being served for SHUTDOWN_DRAIN_MS. SIGINT (a person at a terminal) stops at once.
 */
const stop = async (signal: string, drainMs: number) => {
  if (drainMs > 0) {
    server.drain();
    server.app.log.info({ signal, drainMs }, 'draining: /readyz answers 503 while requests are still served');
    await sleep(drainMs);
  }
  server.app.log.info({ signal }, 'stopping: storing every board');
  await server.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM', config.shutdownDrainMs));
process.once('SIGINT', () => void stop('SIGINT', 0));

// Announced once the signals are handled: whoever waits for this line may stop the server right away.
const publicUrl = config.publicUrl ? `, public URL ${config.publicUrl}` : '';
const metricsUrl = server.operator.metricsUrl ? `, metrics at ${server.operator.metricsUrl}` : '';
console.log(`board service ready at ${url} (data in ${config.dataDir}${publicUrl}${metricsUrl})`);
