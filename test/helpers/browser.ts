/** Real headless Chromium (Debian's), driven by playwright-core. */
import { existsSync } from 'node:fs';
import { type Browser, type BrowserServer, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
  return existsSync(CHROMIUM_PATH);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}

/** A Chromium that files connect to (test/helpers/chromium-servers.ts). */
export async function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}

/** This worker's Chromium from the global setup, or one launched for the file when there is none (a config without it). */
export async function connectChromium(endpoints: string[] | undefined): Promise<Browser> {
  if (!endpoints?.length) return launchChromium();
  const worker = Number(process.env.VITEST_POOL_ID ?? 1) - 1;
  return chromium.connect(endpoints[worker % endpoints.length]);
}
