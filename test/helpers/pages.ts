/** Browser test fixtures: the worker's Chromium, a fresh context per person, the board's JSON for checks. */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { chromiumAvailable, connectChromium } from './browser.js';

export const ARTIFACTS = join(process.cwd(), 'test-artifacts');

/**
 * The worker's Chromium, connected for the file (closing the connection closes the
 * contexts the file opened). Every context it opens reports Content-Security-Policy
 * violations (the page's `securitypolicyviolation` events, and Chromium's console
 * messages for those it reports there), and a test that caused one fails after it.
 */
export function useChromium(): { browser: Browser; takeViolations(): string[] } {
  const violations: string[] = [];
  const context = {
    takeViolations: () => violations.splice(0),
  } as { browser: Browser; takeViolations(): string[] };
  beforeAll(async () => {
    if (!chromiumAvailable())
      throw new Error(
        'Chromium is missing: install it with `apt-get install -y chromium chromium-headless-shell` (the README test command does)',
      );
    context.browser = watchPolicy(await connectChromium(inject('chromiumEndpoints')), violations);
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterEach(() => {
    expect(violations.splice(0), 'the page broke its Content-Security-Policy').toEqual([]);
  });
  afterAll(() => context.browser?.close());
  return context;
}

/** The marker the init script logs a violation with, so that the console listener can tell it. */
const VIOLATION = 'CSP violation:';

function watchPolicy(browser: Browser, violations: string[]): Browser {
  const newContext = browser.newContext.bind(browser);
  // browser.newPage() opens its context through newContext, so it is watched too.
  browser.newContext = async (options) => {
    const created = await newContext(options);
    await created.addInitScript((marker) => {
      addEventListener('securitypolicyviolation', (event) =>
        console.error(
          `${marker} ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
        ),
      );
    }, VIOLATION);
    created.on('console', (message) => {
      const text = message.text();
      if (text.startsWith(VIOLATION) || text.includes('Content Security Policy'))
        violations.push(`${message.page()?.url() ?? ''}: ${text}`);
    });
    return created;
  };
  return browser;
}

let axeSource: string | undefined;

/**
 * Puts axe-core into the page. Evaluated through the DevTools protocol, not added
 * as a <script> tag, which the page's policy refuses as an inline script.
 */
export async function injectAxe(page: Page): Promise<void> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
}

/** The ids of the serious and critical axe violations inside `selector`. */
export async function seriousIn(page: Page, selector: string): Promise<string[]> {
  await injectAxe(page);
  const found: { id: string; impact: string }[] = await page.evaluate(
    async (scope) => (await (window as any).axe.run(scope)).violations,
    selector,
  );
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

/** A new person: their own context (own storage, own device id) and page. */
export async function person(
  browser: Browser,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
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

/**
 * Opens the board `id` in a new page of `context` and waits until it is drawn
 * and Live (and, with `items`, until that many items carry a data-id). A step
 * that hangs fails by its own name after 10 s, before the test's timeout.
 */
export async function openBoard(
  context: BrowserContext,
  baseUrl: string,
  id: string,
  options: { items?: number } = {},
): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${baseUrl}/#${id}`);
  await page.waitForSelector('[data-testid=canvas], [data-testid=kanban]');
  await until(async () => (await page.textContent('[data-testid=status]')) === 'Live', 10_000);
  const { items } = options;
  if (items) await until(async () => (await page.locator('[data-id]').count()) >= items);
  return { page, errors };
}

/** Waits until the app's service worker controls `page` (it then holds the app shell); the page's own timeout by default. */
export async function serviceWorkerControls(page: Page, timeoutMs?: number): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: timeoutMs });
}

/** Polls until `check` passes (a browser, a server and a network are involved). */
export async function until<T>(
  check: () => Promise<T> | T,
  timeoutMs = 5_000,
): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false && value !== null)
        return value as Exclude<T, undefined | null | false>;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Picks `label` in the Export menu and reads the file it downloads: its suggested name and bytes. */
export async function exportFile(page: Page, label: string): Promise<{ name: string; bytes: Buffer }> {
  await page.click('.export-menu > summary');
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 20_000 }),
    page.click(`[data-export="${label}"]`),
  ]);
  // A browser reached over its endpoint keeps the file on its side: read it as a stream.
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return { name: download.suggestedFilename(), bytes: Buffer.concat(chunks) };
}
