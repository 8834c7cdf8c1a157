/** Documents that describe the service to machines: /quotas.json for now. */
import type { FastifyInstance } from 'fastify';
import { quotasDocument } from '../../server/quotas.js';

/** Clients may cache the limits for at most 5 minutes (the specification's bound). */
const QUOTAS_MAX_AGE_SECONDS = 300;

export function discoveryRoutes(app: FastifyInstance, options: { rateLimits: boolean }): void {
  const quotas = JSON.stringify(quotasDocument(options), null, 2);
  app.get('/quotas.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('Cache-Control', `public, max-age=${QUOTAS_MAX_AGE_SECONDS}`).send(quotas),
  );
}
