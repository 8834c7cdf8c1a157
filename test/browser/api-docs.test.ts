/**
 * /docs: the OpenAPI description drawn by the Redoc bundle we
 * serve, under its own policy, with no request leaving the server.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, person, useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

describe('/docs in Chromium', () => {
  it('shows the API title and its operations, from this server alone, with no policy violation', async () => {
    const { context, page, errors } = await person(chrome.browser);
    page.setDefaultTimeout(15_000);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const spec = await (await fetch(`${t.server.url}/openapi.json`)).json();

    await page.goto(`${t.server.url}/docs`);
    await page
      .getByRole('heading', { name: new RegExp(spec.info.title) })
      .first()
      .waitFor();
    // Operations are listed by method and path, each tag with its own.
    await page
      .getByRole('button', { name: /^post\s*\/api\/boards$/i })
      .first()
      .waitFor();
    // The search finds an operation by its path and opens it (its summary as the heading).
    await page.keyboard.press('Control+k');
    await page.getByPlaceholder('Search docs...').fill('healthz');
    await page
      .getByText(/Liveness: 200/)
      .first()
      .click();
    await page
      .getByRole('heading', { name: /Liveness: 200/ })
      .first()
      .waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'api-docs.png') });

    const origin = new URL(t.server.url).origin;
    const elsewhere = requested.filter(
      (url) => !url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'),
    );
    expect(elsewhere, 'a request left the server').toEqual([]);
    expect(requested).toContain(`${origin}/docs/redoc.standalone.js`);
    expect(requested).toContain(`${origin}/openapi.json`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
