/**
 * The real entry point in a child process, like startChildServer, but with its
 * stdout and stderr captured whole, so a test can search everything the
 * server logged (keys must never be in it).
 */
import { type Spawned, spawnReady, testServerEnv } from './child-server.js';

export type LoggedChildServer = Pick<Spawned, 'url' | 'output' | 'stop'>;

export function startLoggedChildServer(dataDir: string, env: Record<string, string> = {}): Promise<LoggedChildServer> {
  return spawnReady('app/main.ts', testServerEnv(dataDir, env), { captureOutput: true });
}
