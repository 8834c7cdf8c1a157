/** The error codes and the limits of docs/api.md, from board/model/errors.ts, schema/limits.ts and /quotas.json. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BoardError, errors, type ListedError } from '../../board/model/errors.js';
import { quotasDocument } from '../../board/model/quotas.js';
import * as L from '../../schema/limits.js';
import { table } from './markdown.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A message maker's parameter names, read from its source, so that its message shows where each value goes. */
function parameterNames(describe: (...args: never[]) => unknown): string[] {
  const [, list = '', single] = /^(?:\(([^)]*)\)|(\w+))\s*=>/.exec(describe.toString()) ?? [];
  if (single) return [single];
  return list
    .split(',')
    .map((name) => name.split(':')[0].trim())
    .filter(Boolean);
}

/** Parameters that are lists: their placeholder is a list of one. */
const LIST_PARAMETERS = new Set(['allowed', 'reasons']);

/** Every error of the `errors` list, with placeholders for its arguments: [factory name, the error, its entry]. */
export function listedErrors(): [string, BoardError, ListedError<unknown[]>][] {
  return Object.entries(errors).map(([name, entry]) => {
    const listed = entry as unknown as ListedError<unknown[]>;
    const args = parameterNames(listed.describe).map((param) =>
      LIST_PARAMETERS.has(param) ? [`<${param}>`] : `<${param}>`,
    );
    return [name, listed(...args), listed];
  });
}

export function errorsMarkdown(): string {
  return table(
    ['Status', 'Code', 'Extra body fields', 'Message', 'Where'],
    listedErrors()
      .sort(([, a], [, b]) => a.status - b.status)
      .map(([, error, { scope }]) => [
        scope?.statusSent === false ? '–' : error.status,
        `\`${error.code}\``,
        Object.keys(error.details)
          .map((key) => `\`${key}\``)
          .join(', '),
        error.message,
        scope?.on ?? '',
      ]),
  );
}

/** `a.b.c: value` for every leaf of a nested object; `{requests, windowSeconds}` reads as a rate. */
function leaves(value: unknown, path: string[] = []): [string, string][] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (typeof record.requests === 'number' && typeof record.windowSeconds === 'number')
      return [[path.join('.'), `${record.requests} per ${record.windowSeconds} s`]];
    return Object.entries(record).flatMap(([key, child]) => leaves(child, [...path, key]));
  }
  return [[path.join('.'), Array.isArray(value) ? value.join(', ') : String(value)]];
}

/** Every constant of schema/limits.ts with its value and the comment on its line. */
function limitConstants(): [string, string, string][] {
  const source = readFileSync(join(ROOT, 'schema', 'limits.ts'), 'utf8');
  const comments = new Map(
    [...source.matchAll(/export const (\w+) = [\d_]+;(?: \/\/ (.*))?/g)].map(([, name, comment]) => [
      name,
      comment ?? '',
    ]),
  );
  // In the file's order (its grouping means something); any constant the pattern missed still gets a row.
  const limits = L as Record<string, unknown>;
  const names = [
    ...new Set([
      ...[...source.matchAll(/export const (\w+) =/g)].map(([, name]) => name),
      ...Object.keys(limits).sort(),
    ]),
  ];
  return names
    .filter((name) => Object.hasOwn(limits, name))
    .map((name) => [`\`${name}\``, String(limits[name]), comments.get(name) ?? '']);
}

export function limitsMarkdown(): string {
  const quotas = table(
    ['Key in /quotas.json', 'Value'],
    leaves(quotasDocument({ rateLimits: true })).map(([key, value]) => [`\`${key}\``, value]),
  );
  return [
    '### /quotas.json',
    '',
    'What `GET /quotas.json` serves (with rate limits on; `rateLimits.enabled` is false on a server started with them off):',
    '',
    quotas,
    '',
    '### Every constant',
    '',
    'Every limit is a named constant of `schema/limits.ts`, read by the validators, the domain and /quotas.json alike; units are in the names.',
    '',
    table(['Constant', 'Value', 'Note'], limitConstants()),
  ].join('\n');
}
