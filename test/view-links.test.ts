/**
 * View-only links (docs/sharing.md): made, listed and revoked by the board's
 * editors, a token reads on every read surface without ever showing the
 * board's id, every write with it is refused, and a revoked token answers
 * 404 everywhere and closes what was opened with it.
 */
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../app/request-log.js';
import { boardMaps } from '../board/model/document-model.js';
import { hashViewToken } from '../host/access/view-tokens.js';
import { MAX_VIEW_LINKS, VIEW_TOKEN_PATTERN } from '../schema/index.js';
import { connectMcp, type McpClient, rpcError } from './helpers/mcp.js';
import { connectJson, connectYjs, openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();
let mcp: McpClient;
beforeAll(async () => {
  mcp = await connectMcp(t.server.url);
});
afterAll(() => mcp.close());

const text = (id: string, content: string) => ({
  id,
  x: 0,
  y: 0,
  content,
  author: 'user:viewer',
  last_updated: new Date().toISOString(),
});

async function board(body: object = {}): Promise<{ id: string; key?: string }> {
  const res = await t.api.post('/api/boards', body);
  expect(res.status, res.text).toBe(200);
  return { id: res.body.id, key: res.body.access_key };
}

async function link(boardId: string, label?: string, headers: Record<string, string> = {}) {
  const res = await t.api.post(`/api/boards/${boardId}/view-links`, label === undefined ? {} : { label }, headers);
  expect(res.status, res.text).toBe(200);
  return res.body as { token: string; url: string; label: string | null; created_at: string; id: string };
}

describe('making, listing and revoking links', () => {
  it('answers the token once, lists links without it, stores only its hash, and holds at most 20', async () => {
    const { id } = await board();
    const made = await link(id, 'for the client');
    expect(made.token).toMatch(VIEW_TOKEN_PATTERN);
    expect(made.url).toBe(`${t.server.url}/#${made.token}`);
    expect(made).toMatchObject({ label: 'for the client', created_at: expect.any(String) });
    const listed = await t.api.get(`/api/boards/${id}/view-links`);
    expect(listed.body).toEqual({ links: [{ id: made.id, label: 'for the client', created_at: made.created_at }] });
    expect(listed.text).not.toContain(made.token);
    const stored = await t.server.server.store.viewLinks.find(hashViewToken(made.token));
    expect(stored).toMatchObject({ id: made.id, boardId: id });
    expect(await t.server.server.store.viewLinks.find(made.token)).toBeNull();

    const long = await t.api.post(`/api/boards/${id}/view-links`, { label: 'x'.repeat(81) });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'invalid_payload', field: 'label' });
    for (let i = 1; i < MAX_VIEW_LINKS; i++) await link(id);
    const over = await t.api.post(`/api/boards/${id}/view-links`, {});
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'too_many_view_links', limit: MAX_VIEW_LINKS });
    // A revoked link makes room again.
    expect((await t.api.del(`/api/boards/${id}/view-links/${made.id}`)).body).toEqual({ ok: true, id: made.id });
    await link(id);
  });

  it('needs the key to make or revoke on a write-locked board and to list on an all-locked one; a token does none of them', async () => {
    const locked = await board({ lock: 'write' });
    expect((await t.api.post(`/api/boards/${locked.id}/view-links`, {})).status).toBe(401);
    const made = await link(locked.id, undefined, { 'x-board-key': locked.key! });
    expect((await t.api.get(`/api/boards/${locked.id}/view-links`)).status).toBe(200);
    expect((await t.api.del(`/api/boards/${locked.id}/view-links/${made.id}`)).status).toBe(401);

    const all = await board({ lock: 'all' });
    expect((await t.api.get(`/api/boards/${all.id}/view-links`)).status).toBe(401);
    const hidden = await link(all.id, undefined, { 'x-board-key': all.key! });

    const open = await board();
    const token = (await link(open.id)).token;
    for (const res of [
      await t.api.post(`/api/boards/${token}/view-links`, {}),
      await t.api.get(`/api/boards/${token}/view-links`),
      await t.api.del(`/api/boards/${token}/view-links/${hidden.id}`),
    ]) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe('read_only_link');
    }
    expect((await t.api.del(`/api/boards/${open.id}/view-links/${hidden.id}`)).body.code).toBe('view_link_not_found');
  });

  it('are one MCP tool with an action; a token refused there with -32001 read_only_link', async () => {
    const { id } = await board();
    const made = await mcp.call('view_links', { board_id: id, action: 'create', label: 'agent' });
    expect(made.token).toMatch(VIEW_TOKEN_PATTERN);
    expect(made.url).toBe(`${t.server.url}/#${made.token}`);
    expect((await mcp.call('view_links', { board_id: id, action: 'list' })).links).toEqual([
      { id: made.id, label: 'agent', created_at: made.created_at },
    ]);
    const refused = await rpcError(mcp.call('view_links', { board_id: made.token, action: 'list' }));
    expect(refused).toMatchObject({ code: -32001, data: { code: 'read_only_link' } });
    expect(await mcp.call('view_links', { board_id: id, action: 'revoke', id: made.id })).toEqual({
      ok: true,
      id: made.id,
    });
  });
});

describe('what a token opens', () => {
  it('reads every REST surface in place of the id, and no answer names the id', async () => {
    const { id } = await board({ mode: 'todo', content: { columns: [{ title: 'Todo' }], tasks: [] } });
    await t.api.post(`/api/boards/${id}/title`, { title: 'Shared plan' });
    const { token } = await link(id);
    const answers: string[] = [];
    const read = async (path: string, headers: Record<string, string> = {}) => {
      const res = await t.api.get(path, headers);
      answers.push(res.text, [...res.headers.values()].join(' '));
      return res;
    };
    const json = await read(`/json/${token}`);
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ boardId: token, mode: 'todo', title: 'Shared plan' });
    const etag = json.headers.get('etag')!;
    expect((await read(`/json/${token}`, { 'if-none-match': etag })).status).toBe(304);
    expect((await read(`/json?board=${encodeURIComponent(`${t.server.url}/#${token}`)}`)).body.boardId).toBe(token);
    expect((await t.api.request('HEAD', `/json/${token}`)).headers.get('etag')).toBe(etag);
    expect((await read(`/svg-preview/${token}`)).text).toContain('<svg');
    const csv = await read(`/api/boards/${token}/tasks.csv?download=1`);
    expect(csv.text.split(/\r?\n/)[0]).toBe('lane,column,name,priority,assignee,due_date,done,description');
    expect(csv.headers.get('content-disposition')).toContain(token);
    expect((await read(`/api/boards/${token}/tasks.md`)).text).toContain('Shared plan');
    expect((await read(`/api/boards/${token}/meta`)).body).toMatchObject({ boardId: token, lockMode: null });
    expect((await read(`/api/boards/${token}`)).status).toBe(200);
    expect((await read(`/api/boards/${token}/wait?timeout_ms=1000`)).body).toMatchObject({ boardId: token });
    await t.server.server.events.settling!(id);
    const versions = await read(`/api/boards/${token}/versions`);
    expect(versions.body.boardId).toBe(token);
    expect(versions.body.versions.length).toBeGreaterThan(0);
    const version = versions.body.versions[0].version;
    expect((await read(`/api/boards/${token}/versions/${version}`)).body.boardId).toBe(token);
    expect((await read(`/api/boards/${token}/changes?since=${version}`)).status).toBe(200);
    for (const answer of answers) expect(answer).not.toContain(id);
    // A token is a credential: the request log keeps its prefix only.
    expect(redactUrl(`/json/${token}?x=1`)).toBe('/json/v_[redacted]?x=1');
  });

  it('refuses every write with 403 read_only_link, and an unknown token with 404', async () => {
    const { id } = await board({ content: { texts: [{ x: 0, y: 0, content: 'keep' }] } });
    const { token } = await link(id);
    const writes: [string, string, unknown][] = [
      ['POST', `/api/boards/${token}/texts`, { x: 1, y: 1, content: 'no' }],
      ['POST', `/api/boards/${token}/batch`, { ops: [{ type: 'add_text', x: 1, y: 1, content: 'no' }] }],
      ['POST', `/api/boards/${token}/title`, { title: 'no' }],
      ['DELETE', `/api/boards/${token}`, undefined],
      ['POST', `/api/boards/${token}/lock`, { mode: 'all' }],
      ['POST', `/api/boards/${token}/unlock`, undefined],
      ['POST', `/api/boards/${token}/verify-key`, { key: 'abcd1234' }],
      ['POST', `/api/boards/${token}/versions/1/restore`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res =
        method === 'DELETE'
          ? await t.api.del(path)
          : await t.api.post(path, body ?? {}, { 'content-type': 'application/json' });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(403);
      expect(res.body.code).toBe('read_only_link');
    }
    expect((await t.api.get(`/json/${id}`)).body.texts.map((x: { content: string }) => x.content)).toEqual(['keep']);
    const unknown = `v_${'A'.repeat(22)}`;
    expect((await t.api.get(`/json/${unknown}`)).status).toBe(404);
    expect((await t.api.post(`/api/boards/${unknown}/texts`, { x: 1, y: 1, content: 'no' })).status).toBe(404);
  });

  it("an all-locked board's token needs the key as well; a write lock changes nothing for it", async () => {
    const all = await board({ lock: 'all' });
    const { token } = await link(all.id, undefined, { 'x-board-key': all.key! });
    expect((await t.api.get(`/json/${token}`)).status).toBe(401);
    expect((await t.api.get(`/json/${token}`, { 'x-board-key': all.key! })).body.boardId).toBe(token);
    const write = await board({ lock: 'write' });
    const other = await link(write.id, undefined, { 'x-board-key': write.key! });
    expect((await t.api.get(`/json/${other.token}`)).status).toBe(200);
    const res = await t.api.post(
      `/api/boards/${other.token}/texts`,
      { x: 0, y: 0, content: 'x' },
      {
        'x-board-key': write.key!,
      },
    );
    expect(res.body.code).toBe('read_only_link');
  });

  it('opens on MCP: open_board by its URL, get_board, get_preview, list_tasks, a resource; add_text refused', async () => {
    const { id } = await board({ mode: 'todo', content: { columns: [{ title: 'A' }], tasks: [] } });
    const { token, url } = await link(id);
    const opened = await mcp.call('open_board', { board: url });
    expect(opened).toMatchObject({ board_id: token, url: `${t.server.url}/#${token}`, created: false, mode: 'todo' });
    const got = await mcp.call('get_board', { board_id: token });
    expect(got.boardId).toBe(token);
    const preview = await mcp.raw('get_preview', { board_id: token });
    expect(JSON.stringify(preview)).toContain('<svg');
    const tasks = await mcp.call('list_tasks', { board_id: token });
    expect(tasks.columns.map((c: { title: string }) => c.title)).toEqual(['A']);
    const state = await mcp.client.readResource({ uri: `svc://board/${token}/state.json` });
    expect(JSON.parse((state.contents[0] as { text: string }).text).boardId).toBe(token);
    const refused = await rpcError(mcp.call('create_column', { board_id: token, title: 'B', sort: 1 }));
    expect(refused).toMatchObject({ code: -32001, data: { code: 'read_only_link' } });
    for (const answer of [opened, got, preview, tasks, state]) expect(JSON.stringify(answer)).not.toContain(id);
  });

  it('opens /ws/{token} for receiving only: hello and snapshot name the token, a mutation frame is refused', async () => {
    const { id } = await board();
    const { token } = await link(id);
    const viewer = await openJson(t.server.url, token);
    const hello = viewer.frames.find((frame) => frame.type === 'hello')!;
    expect(hello).toMatchObject({ boardId: token, readOnly: true });
    expect(viewer.snapshot.board.boardId).toBe(token);
    viewer.send({ type: 'add_text', ref: 1, x: 0, y: 0, content: 'no' });
    expect(await viewer.next((frame) => frame.type === 'error' && frame.ref === 1)).toMatchObject({
      code: 'read_only_link',
    });
    await t.api.post(`/api/boards/${id}/texts`, { x: 5, y: 5, content: 'from an editor' });
    await viewer.next((frame) => frame.type === 'op' && frame.item?.content === 'from an editor');
    expect(JSON.stringify(viewer.frames)).not.toContain(id);
    viewer.close();
  });

  it('opens /collab by the token: it syncs and hears edits, and its own update is dropped and undone for it', async () => {
    const { id } = await board({ content: { texts: [{ x: 0, y: 0, content: 'shared' }] } });
    const { token } = await link(id);
    const viewer = connectYjs(t.server.url, token);
    await viewer.synced;
    const texts = () => [...boardMaps(viewer.doc).texts.values()].map((item) => (item as { content?: string }).content);
    expect(texts()).toEqual(['shared']);
    await t.api.post(`/api/boards/${id}/texts`, { x: 5, y: 5, content: 'later' });
    await new Promise<void>((resolve) => {
      const seen = () => {
        if (!texts().includes('later')) return;
        viewer.doc.off('update', seen);
        resolve();
      };
      viewer.doc.on('update', seen);
      seen();
    });
    const repaired = new Promise<any>((resolve) =>
      viewer.provider.on('stateless', ({ payload }: { payload: string }) => resolve(JSON.parse(payload))),
    );
    viewer.doc.getMap('texts').set('mine', text('mine', 'not allowed'));
    expect(await repaired).toMatchObject({
      type: 'compensated',
      repairs: [{ kind: 'texts', id: 'mine', action: 'removed' }],
    });
    expect(viewer.doc.getMap('texts').has('mine')).toBe(false);
    expect((await t.api.get(`/json/${id}`)).body.texts).toHaveLength(2);
    viewer.destroy();
  });
});

describe('revoking', () => {
  it('makes the token 404 everywhere and closes its sockets, its subscription and its long poll', async () => {
    const { id } = await board();
    const kept = await link(id, 'kept');
    const gone = await link(id, 'gone');
    const ws = await openJson(t.server.url, gone.token);
    const wsKept = await openJson(t.server.url, kept.token);
    const yjs = connectYjs(t.server.url, gone.token);
    await yjs.synced;
    const yjsClosed = new Promise<number>((resolve) =>
      yjs.provider.configuration.websocketProvider.on('close', ({ event }: { event: { code: number } }) =>
        resolve(event.code),
      ),
    );
    const poll = t.api.get(`/api/boards/${gone.token}/wait?timeout_ms=30000`);
    const subscriber = await connectMcp(t.server.url);
    await subscriber.client.subscribeResource({ uri: `svc://board/${gone.token}/state.json` });
    const warned = new Promise<unknown>((resolve) =>
      subscriber.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
        resolve(notification.params.data),
      ),
    );
    const started = Date.now();
    expect((await t.api.del(`/api/boards/${id}/view-links/${gone.id}`)).status).toBe(200);
    expect(await ws.closed).toMatchObject({ code: 4404, reason: 'view_link_revoked' });
    expect(await yjsClosed).toBe(4404);
    expect((await poll).status).toBe(404);
    expect(await warned).toMatchObject({ code: 'board_not_found' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((await t.api.get(`/json/${gone.token}`)).status).toBe(404);
    expect((await t.api.get(`/svg-preview/${gone.token}`)).status).toBe(404);
    expect((await connectJson(t.server.url, gone.token).catch((error: Error) => error)).toString()).toMatch(/404/);
    const again = connectYjs(t.server.url, gone.token);
    await expect(again.synced).rejects.toThrow(/board_not_found/);
    again.destroy();
    // The other link is untouched.
    expect(wsKept.socket.readyState).toBe(wsKept.socket.OPEN);
    expect((await t.api.get(`/json/${kept.token}`)).status).toBe(200);
    wsKept.close();
    yjs.destroy();
    await subscriber.close();
  });

  it('erasing the board revokes its links', async () => {
    const { id } = await board();
    const { token } = await link(id);
    expect((await t.api.del(`/api/boards/${id}`)).status).toBe(200);
    expect((await t.api.get(`/json/${token}`)).status).toBe(404);
    expect(await t.server.server.store.viewLinks.find(hashViewToken(token))).toBeNull();
    expect(await t.server.server.store.viewLinks.list(id)).toEqual([]);
  });
});
