/**
 * Every file a comment or a document names is there: a path-like name in a
 * source comment, in `docs/*.md` or in a top-level `*.md` must be a file git
 * tracks (or, under `node_modules/`, one installed), and a Markdown link must
 * lead to one from its page. A rename or a removal that leaves a comment
 * behind fails here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const TRACKED = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const PATHS = new Set(TRACKED);
const NAMES = new Set(TRACKED.map((path) => basename(path)));

const SOURCE = /^((server|adapters|schema|public\/src|test|bench|scripts)\/.*|[^/]+)\.(ts|js|cjs|mjs|css)$/;
const DOCUMENT = /^(docs\/.*|[^/]+)\.md$/;
const NAMED = /[\w.*/-]*\w\.(ts|js|md|json|cjs|css)\b/g;
/** A Markdown link to a file of ours (not a URL, not an anchor of the same page): resolved from the page's folder. */
const LINK = /\]\((?![a-z][a-z+.-]*:|#)([^)\s#]+)(?:#[^)]*)?\)/gi;
const URL = /\b[a-z][a-z+.-]*:\/\/[^\s)>\]'"`]*/gi;
/** Names that are not files of ours: documents the service serves, files a tool writes, and a product. */
const NOT_FILES = new Set([
  'tasks.md',
  'tasks.json',
  'state.json',
  'quotas.json',
  'openapi.json',
  'mcp.json',
  'sw.js',
  'registerSW.js',
  'checks.json',
  'Node.js',
]);

/** The comments of a source file (strings are skipped, so a `//` inside one starts none). */
function commentsOf(text: string): string {
  const tokens = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g;
  return [...text.matchAll(tokens)]
    .map(([token]) => token)
    .filter((token) => token.startsWith('/'))
    .join('\n');
}

const asSource = (path: string) => path.replace(/^dist\//, '').replace(/\.js$/, '.ts');
const globOf = (path: string) => new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`);

/** Whether `name`, as written in `file`, names a file that is there. */
function exists(file: string, name: string): boolean {
  if (name.startsWith('node_modules/')) return existsSync(join(ROOT, name));
  if (!name.includes('/')) return NAMES.has(name) || NAMES.has(asSource(name)) || NOT_FILES.has(name);
  const candidates = [name, normalize(join(dirname(file), name))].flatMap((path) => [path, asSource(path)]);
  return candidates.some(
    (path) =>
      PATHS.has(path) ||
      TRACKED.some((tracked) => tracked.endsWith(`/${path}`)) ||
      (path.includes('*') && TRACKED.some((tracked) => globOf(path).test(tracked))),
  );
}

/** `file: name` for every name in `file` that names no file. */
function missingIn(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const prose = (SOURCE.test(file) ? commentsOf(text) : text).replace(URL, ' ');
  const missing: string[] = [];
  for (const match of prose.matchAll(NAMED)) {
    const [name] = match;
    const before = prose[match.index - 1];
    // A path the service answers (`/openapi.json`, `{boardId}/tasks.md`) or a package (`@scope/x.js`).
    if (name.startsWith('/') || ['{', '}', '@', ':'].includes(before)) continue;
    if (!exists(file, name)) missing.push(`${file}: ${name}`);
  }
  if (DOCUMENT.test(file))
    for (const [, target] of text.matchAll(LINK)) {
      if (!PATHS.has(normalize(join(dirname(file), target)))) missing.push(`${file}: link ${target}`);
    }
  return missing;
}

describe('references to files', () => {
  it('every file a comment or a document names exists', () => {
    const files = TRACKED.filter((file) => (SOURCE.test(file) || DOCUMENT.test(file)) && existsSync(join(ROOT, file)));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(missingIn)).toEqual([]);
  });

  it('finds a name that is not there', () => {
    expect(exists('host/boards/boards.ts', 'host/history.ts')).toBe(false);
    expect(exists('docs/choices.md', '../shared/spec/interface.md')).toBe(false);
    expect(exists('host/boards/boards.ts', 'decisions.md')).toBe(false);
    expect(exists('host/boards/boards.ts', 'board/model/versions.ts')).toBe(true);
    expect(exists('docs/history.md', 'store/*/version-store.ts')).toBe(true);
    expect(missingIn('docs/history.md')).toEqual([]);
  });
});
