/**
 * Request logs: one JSON line per request with its id, echoed in
 * X-Request-Id and in every JSON error body; no key or token in any line,
 * however it was sent. The real entry point in a child process, its output whole.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './helpers/child-server.js';
import { type LoggedChildServer, startLoggedChildServer } from './helpers/logged-child-server.js';
import { connectJson } from './helpers/realtime.js';

const TOKEN = 'imp0rt-t0ken-s3cret';

type Line = Record<string, any>;

describe('request logs', () => {
  let child: LoggedChildServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await tempDataDir();
    child = await startLoggedChildServer(dataDir, { LOG_LEVEL: 'info', IMPORT_TOKEN: TOKEN });
  });
  afterAll(async () => {
    await child?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Every line the server logged so far; each is JSON (pino), but for main.ts's own "ready at" line. */
  function lines(): Line[] {
    const all = child
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('board service ready at '));
    return all.map((line) => {
      expect(() => JSON.parse(line), `not a JSON log line: ${line}`).not.toThrow();
      return JSON.parse(line) as Line;
    });
  }
  const requestLines = () => lines().filter((line) => line.msg === 'request');

  it('N requests give N lines, each with its id, method, route pattern, status and time', async () => {
    const id = (
      await (await fetch(`${child.url}/api/boards`, { method: 'POST', headers: { 'x-request-id': 'setup-1' } })).json()
    ).id;
    const calls: [string, string, number][] = [
      ['GET', '/healthz', 200],
      ['GET', `/json/${id}`, 200],
      ['POST', `/api/boards/${id}/texts`, 200],
      ['GET', `/api/boards/${id}/nothing-here`, 404],
      ['POST', '/api/boards', 200],
      ['GET', '/', 200],
    ];
    const sent: string[] = [];
    for (const [index, [method, path, status]] of calls.entries()) {
      const requestId = `count-${index}.x_y`;
      const body = path.endsWith('/texts') ? JSON.stringify({ x: 1, y: 2, content: 'hi' }) : undefined;
      const response = await fetch(`${child.url}${path}`, {
        method,
        body,
        headers: { 'x-request-id': requestId, ...(body && { 'content-type': 'application/json' }) },
      });
      await response.arrayBuffer();
      expect(response.status, path).toBe(status);
      expect(response.headers.get('x-request-id'), 'a sane incoming id is kept and echoed').toBe(requestId);
      sent.push(requestId);
    }
    await expect
      .poll(() => requestLines().filter((line) => String(line.reqId).startsWith('count-')).length)
      .toBe(calls.length);
    const logged = requestLines().filter((line) => String(line.reqId).startsWith('count-'));
    expect(logged.map((line) => line.reqId)).toEqual(sent);
    for (const [index, line] of logged.entries()) {
      expect(line).toMatchObject({
        level: 30,
        method: calls[index][0],
        statusCode: calls[index][2],
        responseTime: expect.any(Number),
        url: calls[index][1],
      });
      // No route matched a 404: no pattern, rather than the URL again.
      expect(line.route).toEqual(calls[index][2] === 404 ? null : expect.any(String));
      expect(typeof line.time).toBe('number');
    }
    // The route is the pattern (lines group by endpoint), the URL the request's.
    expect(logged[1].route).toBe('/json/:boardId');
    expect(logged[2].route).toBe('/api/boards/:boardId/texts');
  });

  it('an error answer: its body, its header and its log line carry the same request id', async () => {
    const response = await fetch(`${child.url}/api/boards/00000000-0000-4000-8000-000000000000`);
    const body = await response.json();
    expect(response.status).toBe(404);
    expect(body).toMatchObject({ code: 'board_not_found', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(response.headers.get('x-request-id')).toBe(body.requestId);
    await expect
      .poll(() => requestLines().find((line) => line.reqId === body.requestId))
      .toMatchObject({ statusCode: 404, method: 'GET' });
    // An error the router answers before any route (a bad JSON body here) too.
    const bad = await fetch(`${child.url}/api/boards`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    const badBody = await bad.json();
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-request-id')).toBe(badBody.requestId);
    await expect
      .poll(() => requestLines().find((line) => line.reqId === badBody.requestId))
      .toMatchObject({ statusCode: 400 });
  });

  it('a line logged while a request is answered (a warning here) carries its request id too', async () => {
    const { id } = await (await fetch(`${child.url}/api/boards`, { method: 'POST' })).json();
    const socket = await connectJson(child.url, id, { query: '?key=not-needed' });
    socket.close();
    // The request's logger is made when it first logs (request-log.ts): its lines must still be bound to the request.
    const warned = () => lines().find((line) => line.boardId === id && String(line.msg).startsWith('deprecated ?key='));
    await expect.poll(warned).toMatchObject({ level: 40, reqId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('an incoming X-Request-Id that is too long or not [A-Za-z0-9._-] is replaced by our own', async () => {
    for (const incoming of ['a'.repeat(65), 'has space', 'semi;colon', '"quoted"', 'ünïcode']) {
      const response = await fetch(`${child.url}/healthz`, {
        headers: { 'x-request-id': encodeURI(incoming) === incoming ? incoming : encodeURIComponent(incoming) },
      });
      const echoed = response.headers.get('x-request-id');
      expect(echoed, incoming).toMatch(/^[0-9a-f-]{36}$/);
    }
    const longest = 'a'.repeat(64);
    expect(
      (await fetch(`${child.url}/healthz`, { headers: { 'x-request-id': longest } })).headers.get('x-request-id'),
    ).toBe(longest);
  });

  it('a key or token sent in every way appears in no log line', async () => {
    const created = await (
      await fetch(`${child.url}/api/boards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ lock: 'write' }),
      })
    ).json();
    const { id, access_key: key } = created;
    expect(key).toMatch(/^[a-z0-9]{8}$/);
    const before = requestLines().length;
    const text = JSON.stringify({ x: 0, y: 0, content: 'keyed' });
    const json = { 'content-type': 'application/json' };
    await fetch(`${child.url}/api/boards/${id}/texts`, {
      method: 'POST',
      body: text,
      headers: { ...json, 'x-board-key': key },
    });
    await fetch(`${child.url}/api/boards/${id}/texts`, {
      method: 'POST',
      body: text,
      headers: { ...json, authorization: `Bearer ${key}` },
    });
    await fetch(`${child.url}/json/${id}?key=${key}&access_key=${key}&token=${TOKEN}&%6Bey=${key}`);
    // Every spelling of a key-like name, as a client might guess it from the header's.
    await fetch(
      `${child.url}/json/${id}?x-board-key=${key}&X_Board_Key=${key}&boardKey=${key}&api.key=${key}&importToken=${TOKEN}&%4Bey%20=${key}`,
    );
    await fetch(`${child.url}/api/boards/${id}/verify-key`, {
      method: 'POST',
      body: JSON.stringify({ key }),
      headers: json,
    });
    await fetch(`${child.url}/api/boards`, {
      method: 'POST',
      body: '{}',
      headers: { ...json, 'x-import-token': TOKEN },
    });
    await fetch(`${child.url}/api/boards`, {
      method: 'POST',
      body: '{}',
      headers: { ...json, 'x-import-token': `${TOKEN}-wrong` },
    });
    await fetch(`${child.url}/api/boards/${id}/lock`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'all' }),
      headers: { ...json, 'x-board-key': `${key}x`, authorization: `Bearer ${TOKEN}` },
    });
    const socket = await connectJson(child.url, id, { key, query: `?key=${key}` });
    socket.close();
    await fetch(`${child.url}/mcp`, {
      method: 'POST',
      headers: { ...json, accept: 'application/json, text/event-stream', 'x-board-key': key },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_board', arguments: { board_id: id, access_key: key } },
      }),
    });
    await expect.poll(() => requestLines().length).toBeGreaterThanOrEqual(before + 9);
    const output = child.output();
    expect(output).toContain('[redacted]'); // the query was seen, and redacted
    expect(output.includes(key), 'the board key is in the log').toBe(false);
    expect(output.includes(TOKEN), 'the import token is in the log').toBe(false);
    // No header is logged (a key-like query name is, with its value redacted).
    expect(output.toLowerCase()).not.toMatch(/"x-board-key"\s*:/);
    expect(output.toLowerCase()).not.toContain('sec-websocket-protocol');
    expect(output.toLowerCase()).not.toContain('authorization');
  });
});
