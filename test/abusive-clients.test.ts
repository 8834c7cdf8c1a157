import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, MAX_SOCKETS_PER_IP } from '../schema/index.js';
import { client } from './helpers/http.js';
import { connectJson, type JsonClient } from './helpers/realtime.js';
import { startServer, useServer } from './helpers/server.js';

const t = useServer({ HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' });

function rawSocket(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

function closedWithin(socket: net.Socket, ms: number): Promise<{ closed: boolean; data: string }> {
  return new Promise((resolve) => {
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    const timer = setTimeout(() => resolve({ closed: false, data }), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ closed: true, data });
    });
  });
}

describe('slow and abusive clients', () => {
  it('a client that dribbles its headers is cut off (slowloris)', async () => {
    const socket = await rawSocket(t.server.url);
    socket.write('GET /quotas.json HTTP/1.1\r\nHost: x\r\n');
    const ticker = setInterval(() => socket.write('X-Slow: 1\r\n'), 300);
    const result = await closedWithin(socket, 5_000);
    clearInterval(ticker);
    expect(result.closed).toBe(true);
    expect(result.data).toMatch(/^HTTP\/1\.1 408/);
  });

  it('a client that dribbles its body is cut off too', async () => {
    const { id } = (await client(t.server.url).post('/api/boards')).body;
    const socket = await rawSocket(t.server.url);
    socket.write(
      `POST /api/boards/${id}/texts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"x":0,`,
    );
    const ticker = setInterval(() => socket.write(' '), 300);
    const result = await closedWithin(socket, 6_000);
    clearInterval(ticker);
    expect(result.closed).toBe(true);
    expect((await client(t.server.url).get(`/json/${id}`)).body.texts).toEqual([]);
  });

  it(`at most ${MAX_SOCKETS_PER_IP} WebSockets per client; a closed one frees its slot`, async () => {
    const { id } = (await client(t.server.url).post('/api/boards')).body;
    const open: JsonClient[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_IP; i++) open.push(await connectJson(t.server.url, id));
    await expect(connectJson(t.server.url, id)).rejects.toMatchObject({ status: 429 });
    open.pop()!.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    open.push(await connectJson(t.server.url, id));
    for (const socket of open) socket.close();
  });

  it('429s stay cheap under a flood: a large body is refused before it is read', async () => {
    const limited = await startServer({ RATE_LIMITS: 'on' });
    try {
      const api = client(limited.url);
      const { id } = (await api.post('/api/boards')).body;
      for (let i = 0; i < 60; i++) await api.get(`/json/${id}`);
      const body = JSON.stringify({ x: 0, y: 0, content: 'x'.repeat(MAX_BODY_BYTES - 100) });
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          api
            .request('POST', `/api/boards/${id}/texts`, { body, headers: { 'content-type': 'application/json' } })
            .catch(() => ({ status: 0 })),
        ),
      );
      const elapsed = performance.now() - started;
      expect(results.every((res) => res.status === 429 || res.status === 0)).toBe(true);
      expect(results.some((res) => res.status === 429)).toBe(true);
      console.log(`20 flood requests of 5 MiB answered 429 in ${elapsed.toFixed(0)} ms`);
    } finally {
      await limited.close();
    }
  });
});
