/**
 * Board history over MCP (docs/history.md): list_versions paging,
 * the agent loop wait_for_update → get_changes(since_etag) that misses no
 * edit, restore_version, the version resource, the lock rules on all of them
 * and hostile history arguments, against a real server with the SDK's client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../host/operations/operations.js';
import { connectMcp, type McpClient, rpcError } from './helpers/mcp.js';
import { openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();
let mcp: McpClient;

beforeAll(async () => {
  mcp = await connectMcp(t.server.url);
});
afterAll(() => mcp.close());

/** Records the board's settled state as a version now, as its settle would in three seconds. */
const recordNow = (boardId: string) => t.server.server.events.settling!(boardId);

const contentOf = (snapshot: any) => ({ texts: snapshot.texts, lines: snapshot.lines, images: snapshot.images });

async function boardWithVersions(
  contents: string[],
  lock?: 'write' | 'all',
): Promise<{ board_id: string; access_key?: string; ids: string[] }> {
  const { board_id, access_key } = await mcp.call('create_board', { mode: 'draw', ...(lock && { lock }) });
  const ids: string[] = [];
  for (const content of contents) {
    ids.push((await mcp.call('add_text', { board_id, access_key, x: 0, y: ids.length * 50, content })).id);
    await recordNow(board_id);
  }
  return { board_id, access_key, ids };
}

/** The tool's answer when it is an isError result: its error body. */
async function toolError(name: string, args: Record<string, unknown>): Promise<any> {
  const result = await mcp.raw(name, args);
  expect(result.isError, `${name} ${JSON.stringify(args)} was accepted`).toBe(true);
  return JSON.parse(result.content[0].text);
}

describe('tools/list', () => {
  it('lists the history tools with honest annotations; the table has restore as a write', async () => {
    const { tools } = await mcp.client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.list_versions.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get_changes.annotations).toMatchObject({ readOnlyHint: true });
    // Hints at their protocol defaults (readOnly false, destructive true, idempotent false) are left out of the list.
    const restore = {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      ...byName.restore_version.annotations,
    };
    expect(restore).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(byName.restore_version.inputSchema.required).toEqual(expect.arrayContaining(['board_id', 'version']));
    expect((byName.restore_version.inputSchema.properties as any).version.type).toBe('integer');
    expect(byName.wait_for_update.inputSchema.properties).toHaveProperty('since_etag');
    expect(byName.wait_for_update.description).toContain('get_changes');
    expect([OPERATIONS.list_versions.access, OPERATIONS.get_changes.access, OPERATIONS.restore_version.access]).toEqual(
      ['read', 'read', 'write'],
    );
  });
});

describe('list_versions', () => {
  it('pages newest first with before and limit; next is the following page', async () => {
    const { board_id } = await boardWithVersions(['a', 'b', 'c']);
    const first = await mcp.call('list_versions', { board_id, limit: 2 });
    expect(first.boardId).toBe(board_id);
    expect(first.versions.map((v: any) => v.version)).toEqual([3, 2]);
    expect(first.versions[0]).toMatchObject({
      at: expect.any(String),
      authors: ['ai:mcp'],
      counts: { texts: 3 },
      changes: { added: 1, updated: 0, removed: 0 },
    });
    expect(first.next).toBe(2);
    const second = await mcp.call('list_versions', { board_id, limit: 2, before: first.next });
    expect(second.versions.map((v: any) => v.version)).toEqual([1]);
    expect(second.next).toBeNull();
    expect((await mcp.call('list_versions', { board_id })).versions).toHaveLength(3);
  });
});

describe("a version's authors are the authors the writes declared", () => {
  const newestAuthors = async (board_id: string) => {
    await recordNow(board_id);
    return (await mcp.call('list_versions', { board_id, limit: 1 })).versions[0].authors;
  };

  it('REST body author, MCP author argument, each op of a /ws batch; the caller when a write names none', async () => {
    const { board_id } = await mcp.call('create_board', { mode: 'draw' });
    const text = await t.api.post(`/api/boards/${board_id}/texts`, { x: 0, y: 0, content: 'a', author: 'ai:alpha' });
    expect(await newestAuthors(board_id)).toEqual(['ai:alpha']);
    // An update by someone else is theirs, though the text keeps its first author.
    await mcp.call('add_text', { board_id, id: text.body.id, x: 5, y: 5, content: 'b', author: 'ai:beta' });
    expect(await newestAuthors(board_id)).toEqual(['ai:beta']);
    await mcp.call('draw_stroke', { board_id, points: [0, 0, 1, 1] });
    expect(await newestAuthors(board_id)).toEqual(['ai:mcp']);
    const socket = await openJson(t.server.url, board_id);
    try {
      socket.send({
        type: 'batch',
        ref: 'b',
        ops: [
          { type: 'add_text', x: 0, y: 0, content: 'c', author: 'ai:gamma' },
          { type: 'draw_stroke', points: [0, 0, 2, 2], author: 'ai:delta' },
        ],
      });
      expect(await socket.next((f) => f.ref === 'b')).toMatchObject({ type: 'ack' });
    } finally {
      socket.close();
    }
    expect(await newestAuthors(board_id)).toEqual(['ai:delta', 'ai:gamma']);
    // A patch of someone else's column is the patcher's.
    const todo = await mcp.call('create_board', { mode: 'todo' });
    await newestAuthors(todo.board_id);
    const column = await mcp.call('create_column', {
      board_id: todo.board_id,
      title: 'Later',
      sort: 9,
      author: 'ai:alpha',
    });
    expect(await newestAuthors(todo.board_id)).toEqual(['ai:alpha']);
    await mcp.call('update_column', { board_id: todo.board_id, id: column.id, title: 'Soon' });
    expect(await newestAuthors(todo.board_id)).toEqual(['ai:mcp']);
  });
});

describe('the agent loop: wait_for_update → get_changes(since_etag)', () => {
  it('sees exactly the edit made in between, and an edit between two waits is not missed', {
    timeout: 30_000,
  }, async () => {
    const { board_id } = await mcp.call('create_board', { mode: 'draw' });
    const waiting = mcp.call('wait_for_update', { board_id, timeout_ms: 20_000 });
    const first = await mcp.call('add_text', { board_id, x: 0, y: 0, content: 'first' });
    const woke = await waiting;
    expect(woke).toMatchObject({ updated: true, timedOut: false, etag: expect.any(String) });

    // An edit lands while the agent is not waiting (over REST, by someone else).
    const second = (await t.api.post(`/api/boards/${board_id}/texts`, { x: 0, y: 50, content: 'second' })).body;
    const started = Date.now();
    const again = await mcp.call('wait_for_update', { board_id, timeout_ms: 20_000, since_etag: woke.etag });
    expect(Date.now() - started).toBeLessThan(2_000); // at once, not after the next settle
    expect(again).toMatchObject({ updated: true, timedOut: false });
    expect(again.etag).not.toBe(woke.etag);

    const changes = await mcp.call('get_changes', { board_id, since_etag: woke.etag });
    expect(changes).toMatchObject({ boardId: board_id, from: 1, etag: again.etag, updated: [], removed: [] });
    expect(changes.added.map((item: any) => item.id)).toEqual([second.id]);
    expect(changes.added[0]).toMatchObject({ content: 'second', author: 'ai:rest' });
    expect(changes.added.some((item: any) => item.id === first.id)).toBe(false);

    // since (a version) gives the same answer; nothing since the current ETag once it settled.
    expect(await mcp.call('get_changes', { board_id, since: 1 })).toEqual(changes);
    await recordNow(board_id);
    const none = await mcp.call('get_changes', { board_id, since_etag: again.etag });
    expect(none).toMatchObject({ from: 2, to: 2, added: [], updated: [], removed: [] });
  });

  it('a wait with the current ETag waits for the next edit', async () => {
    const { board_id } = await mcp.call('create_board', { mode: 'draw' });
    const { etag } = await mcp.call('get_board', { board_id });
    expect(await mcp.call('wait_for_update', { board_id, timeout_ms: 1_000, since_etag: etag })).toMatchObject({
      updated: false,
      timedOut: true,
      etag,
    });
  });

  it('a starting point never recorded is history_gone, an unknown version version_not_found: errors a model reads', async () => {
    const { board_id } = await boardWithVersions(['a']);
    expect(await toolError('get_changes', { board_id, since_etag: '"0000000000000000"' })).toMatchObject({
      code: 'history_gone',
    });
    expect(await toolError('get_changes', { board_id, since: 99 })).toMatchObject({ code: 'version_not_found' });
    expect(await toolError('restore_version', { board_id, version: 99 })).toMatchObject({ code: 'version_not_found' });
  });
});

describe('restore_version', () => {
  it('makes the board equal to the old version and answers {ok, version, restoredFrom, etag}', async () => {
    const { board_id, ids } = await boardWithVersions(['keep', 'this']);
    const old = (await t.api.get(`/json/${board_id}`)).body;
    await mcp.call('erase', { board_id, id: ids[0] });
    await mcp.call('add_text', { board_id, x: 9, y: 9, content: 'vandal' });
    await recordNow(board_id);

    const restored = await mcp.call('restore_version', { board_id, version: 2, author: 'ai:fixer' });
    expect(restored).toEqual({ ok: true, version: expect.any(Number), restoredFrom: 2, etag: expect.any(String) });
    expect(restored.version).toBeGreaterThan(3);
    const now = await t.api.get(`/json/${board_id}`);
    expect(contentOf(now.body)).toEqual(contentOf(old));
    expect(now.body.etag).toBe(restored.etag);
    const { versions } = await mcp.call('list_versions', { board_id, limit: 1 });
    expect(versions[0]).toMatchObject({
      version: restored.version,
      restoredFrom: 2,
      authors: expect.arrayContaining(['ai:fixer']),
    });
  });
});

describe('the version resource', () => {
  it('svc://board/{id}/versions/{version}/state.json reads the board as it was; it is listed as a template, not subscribable', async () => {
    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toContain('svc://board/{id}/versions/{version}/state.json');
    const { board_id } = await boardWithVersions(['then']);
    const then = (await t.api.get(`/json/${board_id}`)).body;
    await mcp.call('add_text', { board_id, x: 0, y: 99, content: 'later' });
    const uri = `svc://board/${board_id}/versions/1/state.json`;
    const read = await mcp.client.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
    const snapshot = JSON.parse((read.contents[0] as any).text);
    expect(snapshot).toMatchObject({
      boardId: board_id,
      mode: 'draw',
      version: 1,
      at: expect.any(String),
      etag: then.etag,
    });
    expect(contentOf(snapshot)).toEqual(contentOf(then));
    expect(
      (await rpcError(mcp.client.readResource({ uri: `svc://board/${board_id}/versions/9/state.json` }))).data,
    ).toMatchObject({ code: 'version_not_found' });
    for (const version of ['0', '-1', '1.5', 'abc', '1e3', '99999999999999999', '']) {
      const error = await rpcError(
        mcp.client.readResource({ uri: `svc://board/${board_id}/versions/${version}/state.json` }),
      );
      expect(error.code, version).toBe(-32602);
    }
    expect((await rpcError(mcp.client.subscribeResource({ uri }))).code).toBe(-32602);
    const { resources } = await mcp.client.listResources();
    expect(resources.some((r) => r.uri.includes('{version}'))).toBe(false);
  });
});

describe('locks', () => {
  it('write lock: history reads are public, restore needs the key', async () => {
    const { board_id, access_key } = await boardWithVersions(['mine'], 'write');
    const stranger = await connectMcp(t.server.url);
    try {
      expect((await stranger.call('list_versions', { board_id })).versions).toHaveLength(1);
      expect((await stranger.call('get_changes', { board_id, since: 1 })).added).toEqual([]);
      const before = (await t.api.get(`/json/${board_id}`)).body.etag;
      const refused = await rpcError(stranger.call('restore_version', { board_id, version: 1 }));
      expect(refused.code).toBe(-32001);
      expect(refused.data).toMatchObject({ code: 'board_locked', lockMode: 'write' });
      expect((await t.api.get(`/json/${board_id}`)).body.etag).toBe(before);
      expect(await stranger.call('restore_version', { board_id, version: 1, access_key })).toMatchObject({
        ok: true,
        restoredFrom: 1,
      });
    } finally {
      await stranger.close();
    }
  });

  it('all lock: every history tool and the version resource need the key; the key a tool was given is remembered', async () => {
    const { board_id, access_key } = await boardWithVersions(['secret'], 'all');
    const stranger = await connectMcp(t.server.url);
    try {
      for (const [tool, args] of [
        ['list_versions', {}],
        ['get_changes', { since: 1 }],
        ['restore_version', { version: 1 }],
      ] as const) {
        const refused = await rpcError(stranger.call(tool, { board_id, ...args }));
        expect(refused.code, tool).toBe(-32001);
        expect(refused.data, tool).toMatchObject({ code: 'board_locked', lockMode: 'all' });
      }
      const uri = `svc://board/${board_id}/versions/1/state.json`;
      expect((await rpcError(stranger.client.readResource({ uri }))).code).toBe(-32001);
      expect((await stranger.call('list_versions', { board_id, access_key })).versions).toHaveLength(1);
      // list_versions opened the board with the key: the session's resource reads use it.
      const read = await stranger.client.readResource({ uri });
      expect(JSON.parse((read.contents[0] as any).text)).toMatchObject({ boardId: board_id, version: 1 });
    } finally {
      await stranger.close();
    }
  });
});

describe('hostile history arguments', () => {
  it('are refused as invalid arguments naming the field, and change nothing', async () => {
    const { board_id } = await boardWithVersions(['a', 'b']);
    const before = (await t.api.get(`/json/${board_id}`)).body.etag;
    const cases: [string, Record<string, unknown>, string][] = [
      ['restore_version', { version: 0 }, 'version'],
      ['restore_version', { version: -1 }, 'version'],
      ['restore_version', { version: 1.5 }, 'version'],
      ['restore_version', { version: '1' }, 'version'],
      ['restore_version', { version: 1e20 }, 'version'],
      ['restore_version', { version: null }, 'version'],
      ['restore_version', { version: { valueOf: 1 } }, 'version'],
      ['restore_version', {}, 'version'],
      ['list_versions', { limit: 0 }, 'limit'],
      ['list_versions', { limit: 101 }, 'limit'],
      ['list_versions', { limit: 2.5 }, 'limit'],
      ['list_versions', { before: -3 }, 'before'],
      ['list_versions', { before: '2' }, 'before'],
      ['get_changes', { since: 0 }, 'since'],
      ['get_changes', { since: '1' }, 'since'],
      ['get_changes', { since: [1] }, 'since'],
      ['get_changes', {}, 'since'],
      ['get_changes', { since: 1, since_etag: '"abc"' }, 'since'],
      ['get_changes', { since_etag: 'not an etag!' }, 'since_etag'],
      ['get_changes', { since_etag: 'x'.repeat(500) }, 'since_etag'],
      ['wait_for_update', { since_etag: '<script>' }, 'since_etag'],
    ];
    for (const [tool, args, field] of cases) {
      const error = await toolError(tool, { board_id, ...args });
      expect(error, `${tool} ${JSON.stringify(args)}`).toMatchObject({ code: 'invalid_payload', field });
    }
    expect((await t.api.get(`/json/${board_id}`)).body.etag).toBe(before);
    expect((await mcp.call('list_versions', { board_id })).versions.map((v: any) => v.version)).toEqual([2, 1]);
  });
});
