/** Who the service says it is, in the MCP handshake and the discovery documents. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './config.js';

const pkg = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string; description: string };

export const SERVICE_INFO = {
  name: 'board-service',
  title: 'Collaborative boards',
  version: pkg.version,
  description: pkg.description,
} as const;
