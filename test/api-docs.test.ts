/**
 * docs/api.md, the project's API reference: it names every route the server
 * describes, every MCP tool it lists and every error code it can answer, and it
 * is exactly what scripts/generate-api-docs.ts writes from the code today.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLOSE } from '../board/model/errors.js';
import { listedErrors } from '../scripts/api-docs/reference.js';
import { API_DOCS_COMMAND, API_DOCS_PATH, apiDocsMarkdown } from '../scripts/generate-api-docs.js';
import { useServer } from './helpers/server.js';

const t = useServer();
const docs = () => readFileSync(API_DOCS_PATH, 'utf8');
const headings = () =>
  new Set(
    docs()
      .split('\n')
      .filter((line) => line.startsWith('### '))
      .map((line) => line.slice(4)),
  );

describe('docs/api.md', () => {
  it('has a section for every path and method of /openapi.json', async () => {
    const { body } = await t.api.get('/openapi.json');
    const described = Object.entries(body.paths as Record<string, object>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(described.length).toBeGreaterThan(40);
    expect(described.filter((route) => !headings().has(route))).toEqual([]);
  });

  it('has a section for every MCP tool the server lists', async () => {
    const { body } = await t.api.get('/.well-known/mcp.json');
    const tools = (body.tools as { name: string }[]).map((tool) => tool.name);
    expect(tools).toContain('add_text');
    expect(tools.filter((name) => !headings().has(name))).toEqual([]);
  });

  it('names every error code and every WebSocket close code', () => {
    const codes = listedErrors().map(([, error]) => error.code);
    expect(codes).toEqual(expect.arrayContaining(['board_locked', 'too_many_connections', 'unknown_frame']));
    const text = docs();
    expect(codes.filter((code) => !text.includes(`\`${code}\``))).toEqual([]);
    expect(Object.values(CLOSE).filter(({ code, reason }) => !text.includes(`| ${code} | \`${reason}\` |`))).toEqual(
      [],
    );
  });

  it('is what the generator writes from the code today', () => {
    const fresh = apiDocsMarkdown();
    if (docs() !== fresh) expect.fail(`docs/api.md is out of date: run \`${API_DOCS_COMMAND}\` and commit the result`);
  });
});
