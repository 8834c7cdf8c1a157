/** Builds the server from the configuration, listens, and stops cleanly on SIGTERM/SIGINT (loaded by main.ts once the runtime is known to be supported). */
import { buildServer } from './build-server.js';
import { loadConfig } from './config.js';

const config = loadConfig();
const server = await buildServer(config);
const url = await server.listen();
const publicUrl = config.publicUrl ? `, public URL ${config.publicUrl}` : '';
console.log(`board service ready at ${url} (data in ${config.dataDir}${publicUrl})`);

const stop = async (signal: string) => {
  server.app.log.info({ signal }, 'stopping: storing every board');
  await server.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop('SIGTERM'));
process.once('SIGINT', () => void stop('SIGINT'));
