/**
 * fast-check arbitraries of hostile input: wrong types, huge and non-finite
 * numbers, deep nesting, prototype-pollution keys, malformed JSON, invalid
 * UTF-8 and oversized strings. Values may hold symbolic tokens (`$draw`,
 * `$text`, ...) that a test resolves against its live fixtures at run time,
 * so arbitraries can be built before any board exists.
 */
import fc from 'fast-check';

/** Keys that pollute prototypes when code copies objects naively. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const LONG = {
  k10: 'x'.repeat(10_000),
  k100: 'y'.repeat(100_001), // one over a text's 100000 characters
  k300: 'z'.repeat(300_000),
};

/** Scalars that break naive code: edges of number ranges, NaN/Infinity spelled as strings, odd strings. */
export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -0,
    1,
    -1,
    0.5,
    1e308,
    -1e308,
    5e-324,
    2 ** 31,
    -(2 ** 31),
    2 ** 32,
    2 ** 53,
    2 ** 53 + 2,
    1e21,
    -1e21,
    1e9,
    1e9 + 1,
    'NaN',
    'Infinity',
    '-Infinity',
    '1e999',
    '-1e999',
    '0x10',
    '1_000',
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\udfff',
    '\ufeff',
    '\u202e',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    '../../../etc/passwd',
    '%00',
    '%zz',
    '<script>alert(1)</script>',
    '"]}',
    '=SUM(A1)',
    'javascript:alert(1)',
    'https://a.test/',
    'data:image/png;base64,',
    'data:image/svg+xml;base64,PHN2Zz4=',
    'data:image/png;base64,!!!!',
    'svc-key.abc',
    'todo',
    'draw',
    'write',
    'all',
    'auto',
    '2026-02-30',
    '9999-99-99',
    'H',
    'h',
    'links',
    'texts',
    '$draw',
    '$todo',
    '$text',
    '$stroke',
    '$image',
    '$column',
    '$task',
    '$key',
    LONG.k10,
    LONG.k100,
    LONG.k300,
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

/** Object keys: prototype keys, field names of the API, and random ones. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    ...PROTO_KEYS,
    'toString',
    'valueOf',
    'hasOwnProperty',
    'id',
    'type',
    'ref',
    'x',
    'y',
    'content',
    'points',
    'kind',
    'author',
    'board_id',
    'access_key',
    'more',
    'ops',
    '',
  ),
  fc.string({ maxLength: 12 }),
);

/** Builds an object whose keys are own data properties, `__proto__` included (as JSON.parse makes them). */
export function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries)
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

/**
 * Nested `[[[...]]]` or `{"a":{"a":...}}` of a given depth. It prints itself
 * in a line (fast-check's reporter would overflow the stack walking it).
 */
export function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  Object.defineProperty(value, fc.toStringMethod, { value: () => `nested(${depth}, '${kind}')` });
  return value;
}

/** Any JSON-able hostile value: scalars, small arrays and objects of them, deep nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: hostileScalar },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map(objectOf) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 100, max: 3000 }), fc.constantFrom<'array' | 'object'>('array', 'object'))
        .map(([d, k]) => nested(d, k)),
    },
  ),
})).value;

/**
 * A valid template mutated: each field kept, dropped or replaced by a hostile
 * value, plus a few hostile extra keys (prototype keys among them).
 */
export function mutated(template: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.entries(template).map(([key, value]) =>
    fc.oneof(
      { weight: 5, arbitrary: fc.constant<[string, unknown] | null>([key, value]) },
      { weight: 1, arbitrary: fc.constant<[string, unknown] | null>(null) },
      { weight: 3, arbitrary: hostileValue.map<[string, unknown] | null>((hostile) => [key, hostile]) },
    ),
  );
  return fc
    .tuple(fc.tuple(...fields), fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 3 }))
    .map(([kept, extra]) =>
      objectOf([...kept.filter((entry): entry is [string, unknown] => entry !== null), ...extra]),
    );
}

/** Malformed or adversarial JSON text that JSON.stringify cannot produce. */
export const hostileJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '[',
    '{"x":',
    '{"x":1,}',
    "{'x':1}",
    'NaN',
    'Infinity',
    '-Infinity',
    'undefined',
    'null',
    'true',
    '0',
    '""',
    '[]',
    '{}',
    '{"x":NaN,"y":0,"content":"a"}',
    '{"x":Infinity,"y":-Infinity,"content":"a"}',
    '{"x":1e999,"y":-1e999,"content":"a"}',
    '{"width":1e999}',
    '{"lane":1e999,"title":"t"}',
    '{"points":[1e999,0,1,1]}',
    '{"points":"[[1e999,0]]"}',
    '{"sort":-1e999,"column_id":"x"}',
    '{"mode":"todo","__proto__":{"x":1}}',
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '{"a":{"__proto__":{"polluted":"yes"}}}',
    '{"x":0,"y":0,"content":"a","__proto__":{"postit":true}}',
    '\u0000',
    '\ufeff{"x":0}',
    '{"x":0,"x":1,"y":0,"content":"dup"}',
    '{"x":0,"y":0,"content":"a"} trailing',
    '{"x":0,"y":0,"content":"\\ud800"}',
    '{"x":0,"y":0,"content":"\\u0000"}',
    '{"x":"0","y":"0","content":1}',
    '1'.repeat(400),
    '-'.repeat(50),
  ),
  fc.integer({ min: 1_000, max: 150_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1_000, max: 50_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.integer({ min: 1_000, max: 50_000 }).map((n) => '['.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

/** Bytes that are not UTF-8: lone continuation bytes, overlong forms, encoded surrogates, truncated sequences. */
export const invalidUtf8: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.constantFrom(
    Uint8Array.of(0xff),
    Uint8Array.of(0xfe, 0xff),
    Uint8Array.of(0xc0, 0xaf),
    Uint8Array.of(0xe0, 0x80, 0xaf),
    Uint8Array.of(0xed, 0xa0, 0x80),
    Uint8Array.of(0xf4, 0x90, 0x80, 0x80),
    Uint8Array.of(0xe2, 0x82),
    Uint8Array.of(0x80),
  ),
  fc.uint8Array({ minLength: 1, maxLength: 64 }),
);

/** A JSON body with invalid UTF-8 inside a string value (or as the whole body). */
export function invalidUtf8Body(prefix: string): fc.Arbitrary<Uint8Array> {
  return fc
    .tuple(invalidUtf8, fc.boolean())
    .map(([bytes, wrapped]) => (wrapped ? Buffer.concat([Buffer.from(prefix), bytes, Buffer.from('"}')]) : bytes));
}

/** Content types a client might send instead of (or as a variant of) application/json. */
export const hostileContentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  undefined,
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '*/*',
  ';',
  'application/json;;;',
  'application/json; charset="',
  ' ',
  'application/json, text/plain',
  'application/json; boundary=__proto__',
);

/** A path segment: hostile strings, URL-encoded or raw percent sequences (valid or not). */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '..',
    '.',
    '%',
    '%zz',
    '%00',
    '%ff',
    '%c0%af',
    '%2e%2e',
    '%2F',
    '%2f..%2f',
    'null',
    'undefined',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    '00000000-0000-4000-8000-000000000000',
    'ZZZZZZZZ-0000-4000-8000-000000000000',
    '%ED%A0%80',
    '%E2%80%AE',
    '%F0%9F%98%80',
    '*',
    ';',
    'a'.repeat(3000),
    '00000000-0000-4000-8000-00000000000g',
    '00000000-0000-4000-8000-0000000000000',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => encodeURIComponent(s)),
  fc.webSegment(),
);

/** Header values a fetch client can send (printable ASCII only), hostile ones included. */
export const hostileHeaderValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'wrongkey',
    'abc123',
    'ABCDEFGH',
    'a'.repeat(9),
    'a'.repeat(4000),
    '__proto__',
    '*',
    'null',
    '"x"',
    'W/"x"',
    ', , ,',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, '').trim()),
);

/** Substitutes symbolic tokens (`$name`) anywhere in a value, keeping own `__proto__` keys as own keys. */
export function resolveTokens(value: unknown, tokens: Record<string, string>): unknown {
  if (typeof value === 'string') return Object.hasOwn(tokens, value) ? tokens[value] : value;
  if (value && typeof value === 'object' && fc.toStringMethod in value) return value; // deep nesting holds no tokens
  if (Array.isArray(value)) return value.map((item) => resolveTokens(item, tokens));
  if (value && typeof value === 'object')
    return objectOf(Object.entries(value).map(([key, item]) => [key, resolveTokens(item, tokens)]));
  return value;
}
