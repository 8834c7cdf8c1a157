/**
 * Baseline for the write benchmark: a bare Fastify route in the same process
 * shape as the service, that parses the same body with the same zod schema and
 * answers the same JSON, with no document and no storage. Prints its URL.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { MAX_BODY_BYTES, TextInput } from '../../schema/index.js';

const app = Fastify({ bodyLimit: MAX_BODY_BYTES, logger: false });
app.post<{ Params: { boardId: string } }>('/api/boards/:boardId/texts', async (request, reply) => {
  const parsed = TextInput.safeParse(request.body ?? {});
  if (!parsed.success) return reply.status(400).send({ error: parsed.error.message, code: 'invalid_payload' });
  const { author, ...text } = parsed.data;
  return { ...text, id: text.id ?? randomUUID(), author: author ?? 'ai:rest', last_updated: new Date().toISOString() };
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`ready at ${address}`);
