/** The error codes and the limits of docs/api.md, from board/model/errors.ts, the sources that throw, schema/limits.ts and /quotas.json. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as L from '../../schema/limits.js';
import { type BoardError, errors } from '../../board/model/errors.js';
import { quotasDocument } from '../../board/model/quotas.js';
import { table } from './markdown.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A factory's parameter names, read from its source, so that its message shows where each value goes. */
function parameterNames(factory: (...args: never[]) => unknown): string[] {
  const [, list = '', single] = /^(?:\(([^)]*)\)|(\w+))\s*=>/.exec(factory.toString()) ?? [];
  if (single) return [single];
  return list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Every error of the `errors` list, with placeholders for its arguments: [factory name, the error]. */
export function listedErrors(): [string, BoardError][] {
  return Object.entries(errors).map(([name, factory]) => {
    const args = parameterNames(factory).map((param) => (param === 'allowed' ? [`<${param}>`] : `<${param}>`));
    return [name, (factory as (...a: unknown[]) => BoardError)(...args)];
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Codes thrown outside the `errors` list (`new BoardError(status, 'code', message)` in the adapters and the server): [status, code, message, file]. */
export function otherErrors(): [number, string, string, string][] {
  const listed = new Set(listedErrors().map(([, error]) => error.code));
  const found = new Map<string, [number, string, string, string]>();
  for (const file of ['adapters', 'board', 'host', 'store', 'cluster', 'app'].flatMap((dir) =>
    sourceFiles(join(ROOT, dir)),
  )) {
    for (const [, status, code, message] of readFileSync(file, 'utf8').matchAll(
      /new BoardError\(\s*(\d{3}),\s*'([a-z_]+)',\s*['`](.*?)['`][,)]/g,
    )) {
      if (!listed.has(code) && !found.has(code))
        found.set(code, [Number(status), code, message.replace(/\$\{[^}]*\}/g, '…'), relative(ROOT, file)]);
    }
  }
  return [...found.values()].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
}

export function errorsMarkdown(): string {
  const listed = table(
    ['Status', 'Code', 'Extra body fields', 'Message'],
    listedErrors()
      .sort(([, a], [, b]) => a.status - b.status)
      .map(([, error]) => [
        error.status,
        `\`${error.code}\``,
        Object.keys(error.details)
          .map((key) => `\`${key}\``)
          .join(', '),
        error.message,
      ]),
  );
  const others = table(
    ['Status', 'Code', 'Message', 'Where'],
    otherErrors().map(([status, code, message, file]) => [status, `\`${code}\``, message, `\`${file}\``]),
  );
  return [listed, '', 'Codes of one surface or one route, thrown where they arise:', '', others].join('\n');
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
