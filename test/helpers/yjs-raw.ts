/**
 * The Hocuspocus wire protocol spoken by hand over a bare `ws` socket, so a
 * test can send what no well-behaved provider would: random bytes, truncated
 * sync messages, updates crafted byte by byte.
 */
import { AuthMessageType } from '@hocuspocus/common';
import { MessageType } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';

export function authMessage(documentName: string, token: string): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, documentName);
  encoding.writeVarUint(encoder, MessageType.Auth);
  encoding.writeVarUint(encoder, AuthMessageType.Token);
  encoding.writeVarString(encoder, token);
  return encoding.toUint8Array(encoder);
}

/** A sync message of the given step carrying `payload` (an update, or a state vector for step 1). */
export function syncMessage(documentName: string, step: number, payload: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, documentName);
  encoding.writeVarUint(encoder, MessageType.Sync);
  encoding.writeVarUint(encoder, step);
  encoding.writeVarUint8Array(encoder, payload);
  return encoding.toUint8Array(encoder);
}

/** The header of any message: document name and type, then whatever `rest` holds. */
export function framed(documentName: string, type: number, rest: Uint8Array): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, documentName);
  encoding.writeVarUint(encoder, type);
  encoding.writeUint8Array(encoder, rest);
  return encoding.toUint8Array(encoder);
}

export type RawCollab = {
  socket: WebSocket;
  /** Resolves with the server's answer to authentication. */
  auth: Promise<{ ok: true; scope: string } | { ok: false; reason: string }>;
  /** Message types received so far (after the document name). */
  received: number[];
  closed: Promise<{ code: number; reason: string }>;
  send(bytes: Uint8Array): void;
  close(): void;
};

/** Opens /collab; when `documentName` is given, authenticates to it with `token` at once. */
export function openRawCollab(baseUrl: string, documentName?: string, token = ''): Promise<RawCollab> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/collab`);
  socket.binaryType = 'nodebuffer';
  const received: number[] = [];
  let settleAuth!: (value: { ok: true; scope: string } | { ok: false; reason: string }) => void;
  const auth = new Promise<{ ok: true; scope: string } | { ok: false; reason: string }>(
    (resolve) => (settleAuth = resolve),
  );
  socket.on('message', (data: Buffer) => {
    try {
      const decoder = decoding.createDecoder(new Uint8Array(data));
      decoding.readVarString(decoder);
      const type = decoding.readVarUint(decoder);
      received.push(type);
      if (type !== MessageType.Auth) return;
      const authType = decoding.readVarUint(decoder);
      if (authType === AuthMessageType.Authenticated) settleAuth({ ok: true, scope: decoding.readVarString(decoder) });
      if (authType === AuthMessageType.PermissionDenied)
        settleAuth({ ok: false, reason: decoding.readVarString(decoder) });
    } catch {
      received.push(-1);
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => {
      settleAuth({ ok: false, reason: `closed ${code}` });
      resolve({ code, reason: reason.toString() });
    }),
  );
  socket.on('error', () => {}); // a refused or reset socket shows up as `closed`
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      if (documentName !== undefined) socket.send(authMessage(documentName, token));
      resolve({
        socket,
        auth,
        received,
        closed,
        send: (bytes) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(bytes);
        },
        close: () => socket.terminate(),
      });
    });
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`upgrade refused: ${response.statusCode}`)),
    );
  });
}
