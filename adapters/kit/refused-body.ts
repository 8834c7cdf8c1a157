/**
 * The rest of a body refused for its size. Closing the connection on a client
 * still sending makes its kernel answer with a reset, which throws away the
 * 413 it has not read yet: fetch and the MCP SDK then report "fetch failed"
 * (EPIPE) instead. So the rest is read and dropped first, up to a bound in
 * bytes and in time, and the answer closes the connection after it; a client
 * past either bound (or one that declares more) is cut off, as before, so a
 * client sending gigabytes holds nothing.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_BODY_BYTES, REFUSED_BODY_DRAIN_BYTES, REFUSED_BODY_DRAIN_MS } from '../../schema/index.js';

/** Reads and drops what is left of the request body; true when it ended within the bounds. */
function drain(request: FastifyRequest): Promise<boolean> {
  const raw = request.raw;
  if (raw.complete) return Promise.resolve(true);
  if (Number(raw.headers['content-length']) > MAX_BODY_BYTES + REFUSED_BODY_DRAIN_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    let dropped = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      raw.removeListener('data', onData);
      raw.removeListener('end', onEnd);
      raw.removeListener('error', onFailure);
      raw.removeListener('close', onFailure);
      if (!ended) raw.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > REFUSED_BODY_DRAIN_BYTES) finish(false);
    };
    const onEnd = () => finish(true);
    const onFailure = () => finish(false);
    const timer = setTimeout(onFailure, REFUSED_BODY_DRAIN_MS);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onFailure);
    raw.once('close', onFailure);
    raw.resume();
  });
}

/**
 * Before a 413 for the body's size goes out: drains the body within its
 * bounds and closes the connection after the answer (it carries no further
 * request); cuts it off once answered when the body did not end in time.
 */
export async function settleRefusedBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('connection', 'close');
  if (await drain(request)) return;
  reply.raw.once('finish', () => request.raw.socket?.destroy());
}
