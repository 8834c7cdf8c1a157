/**
 * The chaos harness: two instances (child processes) on a Redis and a
 * PostgreSQL of their own, instance A reaching Redis through a TCP proxy that
 * can cut it off, and a small steady load on one board (REST writes
 * alternating between the instances, a JSON-channel and a Yjs client on each)
 * that records what every client was told and when, and what /readyz said.
 */
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { REAL_RELAY_CLOCKS, type Spawned, spawnReady, tempDataDir, testServerEnv } from './child-server.js';
import { connectYjs, type YjsClient } from './realtime.js';
import { type TcpProxy, tcpProxy } from './tcp-proxy.js';
import { type ThrowawaySetup, throwawaySetup } from './throwaway-services.js';

/** The import token: its tier's per-board budget (600 per 10 s) leaves the load's REST writes under the limits that stay on. */
export const TOKEN = 'chaos-token';

export type Instance = { name: string; url: string; port: number; dataDir: string; process: Spawned };

async function startInstance(name: string, env: Record<string, string>, port = 0): Promise<Instance> {
  const dataDir = await tempDataDir();
  const spawned = await spawnReady(
    'app/main.ts',
    testServerEnv(dataDir, { ...REAL_RELAY_CLOCKS, ...env, PORT: String(port) }),
    {
      captureOutput: true,
      readyWithinMs: 45_000, // several instances start at once on a loaded machine
    },
  );
  return { name, url: spawned.url, port: Number(new URL(spawned.url).port), dataDir, process: spawned };
}

/** Stops an instance however it is (SIGTERM, SIGKILL if it does not exit within 5 s) and removes its DATA_DIR. */
export async function stopInstance(instance: Instance): Promise<void> {
  const timer = setTimeout(() => instance.process.process.kill('SIGKILL'), 5_000);
  await instance.process.stop();
  clearTimeout(timer);
  await rm(instance.dataDir, { recursive: true, force: true });
}

export type ChaosCluster = {
  services: ThrowawaySetup;
  /** Between instance A and Redis. */
  proxy: TcpProxy;
  a: Instance;
  b: Instance;
  /** SIGKILLs instance A. */
  killA(): void;
  /** Starts an instance that exited again on the same port, so its clients find it. */
  restart(name: 'a' | 'b'): Promise<void>;
  /** A fresh instance on the same services, stopped with the cluster. */
  third(): Promise<Instance>;
  stop(): Promise<void>;
};

export async function startChaosCluster(prefix: string): Promise<ChaosCluster> {
  const services = await throwawaySetup(prefix);
  const redisPort = Number(new URL(services.redis.url).port);
  const proxy = await tcpProxy({ host: '127.0.0.1', port: redisPort });
  const common = { ...services.env, RATE_LIMITS: 'on', IMPORT_TOKEN: TOKEN };
  const envA = { ...common, REDIS_URL: `redis://127.0.0.1:${proxy.port}` };
  const started: Instance[] = [];
  const start = async (name: string, env: Record<string, string>, port?: number) => {
    const instance = await startInstance(name, env, port);
    started.push(instance);
    return instance;
  };
  try {
    const [a, b] = await Promise.all([start('A', envA), start('B', common)]);
    const cluster: ChaosCluster = {
      services,
      proxy,
      a,
      b,
      killA: () => cluster.a.process.process.kill('SIGKILL'),
      restart: async (name) => {
        await cluster[name].process.exited;
        cluster[name] = await start(name.toUpperCase(), name === 'a' ? envA : common, cluster[name].port);
      },
      third: () => start('C', common),
      stop: async () => {
        proxy.set('pass');
        try {
          process.kill(services.redis.pid(), 'SIGCONT'); // a frozen Redis would hold the instances' shutdown
        } catch {}
        await Promise.all(started.map(stopInstance));
        await proxy.close();
        await services.remove();
      },
    };
    return cluster;
  } catch (error) {
    await Promise.all(started.map(stopInstance));
    await proxy.close();
    await services.remove();
    throw error;
  }
}

/** A REST write as its client saw it; status 0 when no HTTP answer came (connection refused or reset). */
export type RestWrite = {
  instance: string;
  content: string;
  sentAt: number;
  ms: number;
  status: number;
  code?: string;
  id?: string;
};

/** A JSON-channel frame: its answer, or `lost` when its socket closed first. */
export type FrameWrite = {
  instance: string;
  ref: string;
  sentAt: number;
  ms?: number;
  outcome?: 'ack' | 'error' | 'lost';
  code?: string;
  id?: string;
};

/** A /readyz answer; `code` client_timeout when none came within 5 s. */
export type Readiness = { at: number; instance: string; status: number; body: any; code?: string };

/** A JSON-channel client that writes a text every `everyMs`, keeps the board's text ids from snapshot and ops, and reconnects. */
class JsonWriter {
  readonly frames: FrameWrite[] = [];
  view = new Set<string>();
  private socket: WebSocket | undefined;
  private pending = new Map<string, FrameWrite>();
  private stopped = false;
  private writing = true;
  private timer: NodeJS.Timeout;
  private n = 0;

  constructor(
    private readonly instance: () => Instance,
    private readonly board: string,
    everyMs: number,
  ) {
    this.connect();
    this.timer = setInterval(() => this.write(), everyMs);
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = new WebSocket(`${this.instance().url.replace(/^http/, 'ws')}/ws/${this.board}`);
    this.socket = socket;
    socket.on('message', (data) => this.receive(JSON.parse(data.toString())));
    socket.on('error', () => {}); // a close follows
    socket.on('close', () => {
      for (const frame of this.pending.values()) frame.outcome = 'lost';
      this.pending.clear();
      if (!this.stopped) setTimeout(() => this.connect(), 500);
    });
  }

  private receive(frame: Record<string, any>): void {
    switch (frame.type) {
      case 'snapshot':
        this.view = new Set((frame.board.texts as { id: string }[]).map((text) => text.id));
        return;
      case 'op':
        if (frame.kind !== 'texts') return;
        if (frame.op === 'upsert') this.view.add(frame.item.id);
        if (frame.op === 'delete') this.view.delete(frame.id);
        return;
      case 'ack':
      case 'error': {
        const sent = this.pending.get(String(frame.ref));
        if (!sent) return;
        this.pending.delete(sent.ref);
        Object.assign(sent, {
          ms: Date.now() - sent.sentAt,
          outcome: frame.type,
          code: frame.code,
          id: frame.result?.id,
        });
        return;
      }
    }
  }

  private write(): void {
    if (!this.writing || this.socket?.readyState !== WebSocket.OPEN) return;
    const name = this.instance().name;
    const frame: FrameWrite = { instance: name, ref: `ws-${name}-${this.n++}`, sentAt: Date.now() };
    this.frames.push(frame);
    this.pending.set(frame.ref, frame);
    this.socket.send(JSON.stringify({ type: 'add_text', ref: frame.ref, x: 1, y: 1, content: frame.ref }));
  }

  stopWriting(): void {
    this.writing = false;
    clearInterval(this.timer);
  }

  close(): void {
    this.stopWriting();
    this.stopped = true;
    this.socket?.close();
  }
}

/** A Yjs client that adds a text every `everyMs`; it keeps every edit until the server takes it. */
class YjsWriter {
  readonly edits: string[] = [];
  readonly client: YjsClient;
  private timer: NodeJS.Timeout;

  constructor(instance: Instance, board: string, everyMs: number) {
    this.client = connectYjs(instance.url, board);
    this.timer = setInterval(() => {
      const id = `yjs-${instance.name}-${this.edits.length}`;
      this.edits.push(id);
      const text = { id, x: 2, y: 2, content: id, author: 'user:chaos', last_updated: new Date().toISOString() };
      this.client.doc.getMap('texts').set(id, text);
    }, everyMs);
  }

  stopWriting(): void {
    clearInterval(this.timer);
  }

  texts(): Set<string> {
    return new Set(this.client.doc.getMap('texts').keys());
  }
}

/** Answers within `ms` or reports `status: 0` (refused, reset, or timed out: `code` says which). */
export async function timedFetch(
  url: string,
  init: RequestInit = {},
  ms = 20_000,
): Promise<{ status: number; body: any; ms: number; code?: string }> {
  const start = Date.now();
  try {
    const response = await fetch(url, {
      ...init,
      headers: { 'x-import-token': TOKEN, ...init.headers },
      signal: AbortSignal.timeout(ms),
    });
    const text = await response.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, body, ms: Date.now() - start, code: body?.code };
  } catch (error) {
    const code = (error as Error).name === 'TimeoutError' ? 'client_timeout' : 'no_answer';
    return { status: 0, body: null, ms: Date.now() - start, code };
  }
}

/** A read of the board on `instance`: how many of the other instance's REST writes, acknowledged over 2 s before, it missed. */
export type Lag = { at: number; instance: string; missing: string[] };

/** How far behind another instance's acknowledged write a read may be. */
export const MAX_LAG_MS = 2_000;

export type Load = {
  board: string;
  rest: RestWrite[];
  json: JsonWriter[];
  yjs: YjsWriter[];
  readiness: Readiness[];
  lags: Lag[];
  /** Stops the writers (the clients stay, to check convergence) and waits for the REST writes still out. */
  stopWriting(): Promise<void>;
  close(): void;
};

/**
 * The load on a new board: `restPerSecond` REST writes alternating between
 * A and B (open loop: a slow answer does not slow the load), a JSON-channel
 * and a Yjs client writing on each, /readyz of both read every 500 ms.
 */
export async function startLoad(cluster: ChaosCluster, restPerSecond = 20): Promise<Load> {
  const created = await timedFetch(`${cluster.a.url}/api/boards`, { method: 'POST' });
  if (created.status !== 200) throw new Error(`board not created: ${created.status} ${JSON.stringify(created.body)}`);
  const board: string = created.body.id;
  const instances = [() => cluster.a, () => cluster.b];
  const json = instances.map((instance) => new JsonWriter(instance, board, 500));
  const yjs = [cluster.a, cluster.b].map((instance) => new YjsWriter(instance, board, 500));
  // An instance that died in an earlier test never syncs its client: fail now, not at the test's timeout.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the Yjs clients did not sync within 15 s')), 15_000);
  });
  try {
    await Promise.race([Promise.all(yjs.map((writer) => writer.client.synced)), late]);
  } catch (error) {
    for (const writer of json) writer.close();
    for (const writer of yjs) writer.client.destroy();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  const rest: RestWrite[] = [];
  const inFlight = new Set<Promise<void>>();
  let n = 0;
  const restTimer = setInterval(() => {
    const instance = instances[n % 2]();
    const content = `rest-${n++}`;
    const sentAt = Date.now();
    const done = timedFetch(`${instance.url}/api/boards/${board}/texts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x: 0, y: 0, content }),
    }).then((answer) => {
      rest.push({ instance: instance.name, content, sentAt, ...answer, id: answer.body?.id });
      inFlight.delete(done);
    });
    inFlight.add(done);
  }, 1000 / restPerSecond);
  const readiness: Readiness[] = [];
  const readyTimer = setInterval(() => {
    for (const instance of instances.map((get) => get())) {
      const at = Date.now();
      void timedFetch(`${instance.url}/readyz`, {}, 5_000).then(({ status, body, code }) =>
        readiness.push({ at, instance: instance.name, status, body, code }),
      );
    }
  }, 500);
  const lags: Lag[] = [];
  const lagTimer = setInterval(() => {
    for (const instance of instances.map((get) => get())) {
      const at = Date.now();
      const due = rest
        .filter((write) => write.instance !== instance.name && write.status === 200)
        .filter((write) => write.sentAt + write.ms < at - MAX_LAG_MS)
        .map((write) => write.id!);
      void timedFetch(`${instance.url}/json/${board}`, {}, 5_000).then(({ status, body }) => {
        if (status !== 200) return; // a refusal or a hang is what the other checks see
        const seen = new Set((body.texts as { id: string }[]).map((text) => text.id));
        lags.push({ at, instance: instance.name, missing: due.filter((id) => !seen.has(id)) });
      });
    }
  }, 1_000);
  return {
    board,
    rest,
    json,
    yjs,
    readiness,
    lags,
    stopWriting: async () => {
      clearInterval(restTimer);
      clearInterval(lagTimer);
      for (const writer of [...json, ...yjs]) writer.stopWriting();
      await Promise.all(inFlight);
      await sleep(500); // answers to the last frames
    },
    close: () => {
      clearInterval(readyTimer);
      for (const writer of json) writer.close();
      for (const writer of yjs) writer.client.destroy();
    },
  };
}

/** Output lines an instance wrote from `from` (a length of its output) on. */
export function linesSince(instance: Instance, from: number): string[] {
  return instance.process
    .output()
    .slice(from)
    .split('\n')
    .filter((line) => line.trim() !== '');
}
