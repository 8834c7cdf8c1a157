/** Browser test fixtures: one Chromium per file, a fresh context per person, the board's JSON for checks. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { chromiumAvailable, launchChromium } from './browser.js';

export const ARTIFACTS = join(process.cwd(), 'test-artifacts');

export function useChromium(): { browser: Browser } {
  const context = {} as { browser: Browser };
  beforeAll(async () => {
    if (!chromiumAvailable()) throw new Error('Chromium is missing: install it with `apt-get install -y chromium` (the README test command does)');
    context.browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(() => context.browser?.close());
  return context;
}

/** A new person: their own context (own storage, own device id) and page. */
export async function person(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

export async function boardJson(baseUrl: string, id: string, key?: string): Promise<any> {
  const response = await fetch(`${baseUrl}/json/${id}`, { headers: key ? { 'x-board-key': key } : {} });
  return response.json();
}

/** Polls until `check` passes (a browser, a server and a network are involved). */
export async function until<T>(check: () => Promise<T> | T, timeoutMs = 5_000): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false && value !== null) return value as Exclude<T, undefined | null | false>;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
