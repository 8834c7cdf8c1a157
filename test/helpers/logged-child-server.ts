/**
 * The real entry point in a child process, like startChildServer, but with its
 * stdout and stderr captured whole, so a test can search everything the
 * server logged (keys must never be in it).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testEnv } from './child-server.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export type LoggedChildServer = {
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Stops the process (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
};

export async function startLoggedChildServer(dataDir: string, env: Record<string, string> = {}): Promise<LoggedChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...testEnv(dataDir, env) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk));
  const output = () => Buffer.concat(chunks).toString('utf8');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child server did not start within 20 s:\n${output()}`)), 20_000);
    const look = () => {
      const match = /ready at (\S+)/.exec(output());
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', look);
      resolve(match[1]);
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => reject(new Error(`child server exited with ${code} before it was ready:\n${output()}`)));
  });
  return {
    url,
    output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
