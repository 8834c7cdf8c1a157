/**
 * The browser project's global setup: one Chromium per worker, launched once for
 * the run. Each file connects to its worker's (test/helpers/pages.ts), which costs
 * a fifth of a launch; closing that connection closes the contexts the file opened.
 */
import type { BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumAvailable, launchChromiumServer } from './browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumEndpoints: string[];
  }
}

const servers: BrowserServer[] = [];

export async function setup(project: TestProject): Promise<void> {
  // Without Chromium, useChromium fails each file with the command that installs it.
  if (!chromiumAvailable()) return project.provide('chromiumEndpoints', []);
  const count = Math.max(1, project.config.maxWorkers);
  servers.push(...(await Promise.all(Array.from({ length: count }, launchChromiumServer))));
  project.provide(
    'chromiumEndpoints',
    servers.map((server) => server.wsEndpoint()),
  );
}

export async function teardown(): Promise<void> {
  await Promise.all(servers.splice(0).map((server) => server.close()));
}
