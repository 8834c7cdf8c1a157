/**
 * Real headless Chromium (Debian's), driven by playwright-core: the test files
 * run in its headless shell, the benchmarks and the tests of what only the
 * whole browser has (its back-forward cache) in the browser itself.
 */
import { existsSync } from 'node:fs';
import { type Browser, type BrowserServer, chromium } from 'playwright-core';

/** The whole browser, as a person runs it (without its window). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Chromium's headless shell: the same Blink and V8 without the browser's own
 * interface (its tab strip and toolbar are a page of their own in headless
 * Chromium, drawn in software). What Playwright runs headless by default; the
 * browser files take half the time in it (docs/performance.md, "The test suite").
 */
export const HEADLESS_SHELL_PATH = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

/** The flags this machine needs: no sandbox as root, no GPU, and no background traffic to a closed network. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH) && existsSync(HEADLESS_SHELL_PATH);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}

const SHELL = { executablePath: HEADLESS_SHELL_PATH, headless: true, args: FLAGS };

/** A headless shell that test files connect to (test/helpers/chromium-servers.ts). */
export async function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer(SHELL);
}

/** This worker's Chromium from the global setup, or one launched for the file when there is none (a config without it). */
export async function connectChromium(endpoints: string[] | undefined): Promise<Browser> {
  if (!endpoints?.length) return chromium.launch(SHELL);
  const worker = Number(process.env.VITEST_POOL_ID ?? 1) - 1;
  return chromium.connect(endpoints[worker % endpoints.length]);
}
