import { describe, expect, it } from 'vitest';
import { client } from './helpers/http.js';
import { startServer, useServer } from './helpers/server.js';

const t = useServer();

const MERMAID_ONLY = /^```mermaid\n[\s\S]+\n```$/;

async function follow(path: string, method = 'GET') {
  const res = await fetch(t.server.url + path, { method, redirect: 'manual' });
  const location = res.headers.get('location') ?? '';
  return { res, location, id: location.split('#')[1] };
}

describe('GET /todo and /draw', () => {
  it('/todo creates a kanban todo board and redirects to it, uncached', async () => {
    const { res, location, id } = await follow('/todo');
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(location).toBe(`${t.server.url}/#${id}`);
    const snap = (await t.api.get(`/json/${id}`)).body;
    expect(snap.mode).toBe('todo');
    expect(snap.columns.map((c: any) => c.title)).toEqual(['To do', 'In progress', 'Done']);
  });

  it('/todo honours ?template= and falls back to kanban for an unknown one', async () => {
    const sprint = await follow('/todo?template=sprint');
    expect((await t.api.get(`/json/${sprint.id}`)).body.columns[0].title).toBe('Backlog');
    const unknown = await follow('/todo?template=nonsense');
    expect(unknown.res.status).toBe(302);
    expect((await t.api.get(`/json/${unknown.id}`)).body.columns[0].title).toBe('To do');
  });

  it('HEAD creates and redirects too', async () => {
    const { res, id } = await follow('/todo', 'HEAD');
    expect(res.status).toBe(302);
    expect((await t.api.get(`/json/${id}`)).status).toBe(200);
    const draw = await follow('/draw', 'HEAD');
    expect(draw.res.status).toBe(302);
    expect((await t.api.get(`/json/${draw.id}`)).body.mode).toBe('draw');
  });

  it('/draw gives a blank draw board; unknown seeds too', async () => {
    for (const path of ['/draw', '/draw?seed=unknown']) {
      const { res, id } = await follow(path);
      expect(res.status).toBe(302);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect((await t.api.get(`/json/${id}`)).body).toMatchObject({ mode: 'draw', texts: [], lines: [], images: [] });
    }
  });

  it.each([
    ['mermaid-flowchart', 'flowchart'],
    ['mermaid-mindmap', 'mindmap'],
  ])('/draw?seed=%s pre-fills one text that is exactly one mermaid block', async (seed, diagram) => {
    const { id } = await follow(`/draw?seed=${seed}`);
    const { texts } = (await t.api.get(`/json/${id}`)).body;
    expect(texts).toHaveLength(1);
    expect(texts[0].content).toMatch(MERMAID_ONLY);
    expect(texts[0].content.split('\n')[1].trim().startsWith(diagram)).toBe(true);
    expect(texts[0].author).toBe('system:template');
  });

  it('Location uses PUBLIC_URL when it is set', async () => {
    const other = await startServer({ PUBLIC_URL: 'https://boards.example.org/' });
    try {
      const res = await fetch(`${other.url}/draw`, { redirect: 'manual' });
      expect(res.headers.get('location')).toMatch(/^https:\/\/boards\.example\.org\/#[0-9a-f-]{36}$/);
      const id = res.headers.get('location')!.split('#')[1];
      expect((await client(other.url).get(`/json/${id}`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
