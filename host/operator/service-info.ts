/** Who the service says it is, in the MCP handshake and the discovery documents. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the nearest folder above this module holding package.json (works from src and dist). */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${import.meta.url}`);
    dir = parent;
  }
  return dir;
}

const pkg = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
  version: string;
  description: string;
};

export const SERVICE_INFO = {
  name: 'board-service',
  title: 'Collaborative boards',
  version: pkg.version,
  description: pkg.description,
} as const;
