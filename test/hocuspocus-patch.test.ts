/**
 * The patch carried on @hocuspocus/server (patches/@hocuspocus+server+*.patch,
 * docs/upstream-patches.md, issue 22): a document update builds the `onChange`
 * payload (with a `new Headers()` and a `URLSearchParams` for a change that
 * came from no request) only when an extension has an `onChange` hook. The
 * board service has none on the embedded setup (BoardHocuspocus drops the
 * default one); the Redis extension has one, and gets the payload as before.
 * Pinned to the release it was written against; the Headers test fails on the
 * unpatched server.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Hocuspocus, type Extension, type onChangePayload } from '@hocuspocus/server';

const PATCHED_VERSION = '4.7.0';
const root = join(import.meta.dirname, '..');
const serverDir = join(root, 'node_modules', '@hocuspocus', 'server');

/** Runs `work` with the global `Headers` counting the instances made. */
async function countingNewHeaders(work: () => Promise<void>): Promise<number> {
  const Original = globalThis.Headers;
  let made = 0;
  class Counting extends Original {
    constructor(init?: HeadersInit) {
      super(init);
      made++;
    }
  }
  globalThis.Headers = Counting;
  try {
    await work();
  } finally {
    globalThis.Headers = Original;
  }
  return made;
}

let servers: Hocuspocus[] = [];
afterEach(async () => {
  for (const server of servers) for (const document of server.documents.values()) await server.unloadDocument(document);
  servers = [];
});

/**
 * A Hocuspocus without a network, configured as BoardHocuspocus is (no default
 * onChange), and a document on it changed `times` times through a direct connection.
 */
async function changeDocument(extensions: Extension[], times: number): Promise<void> {
  const server = new Hocuspocus({ extensions, quiet: true, debounce: 0, onChange: undefined });
  servers.push(server);
  const connection = await server.openDirectConnection('patched');
  for (let i = 0; i < times; i++) await connection.transact((doc) => doc.getMap('m').set('k', i));
  await connection.disconnect();
}

describe('the @hocuspocus/server patch', () => {
  it(`is made for the installed @hocuspocus/server ${PATCHED_VERSION}, and both builds carry it`, () => {
    const { version } = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8')) as { version: string };
    expect(version, 'a new Hocuspocus release: re-check the patch against it (docs/upstream-patches.md)').toBe(
      PATCHED_VERSION,
    );
    expect(readdirSync(join(root, 'patches'))).toContain(`@hocuspocus+server+${PATCHED_VERSION}.patch`);
    for (const build of ['hocuspocus-server.esm.js', 'hocuspocus-server.cjs']) {
      const source = readFileSync(join(serverDir, 'dist', build), 'utf8');
      expect(source, build).toContain('if (hasHook(this.configuration.extensions, "onChange")) {');
    }
  });

  it('an update no extension listens to with onChange builds no payload (no Headers)', async () => {
    // Opening the connection makes one of its own; unpatched, each update makes one more for a payload nobody receives.
    const once = await countingNewHeaders(() => changeDocument([{ async onStoreDocument() {} }], 1));
    const often = await countingNewHeaders(() => changeDocument([{ async onStoreDocument() {} }], 6));
    expect(often).toBe(once);
  });

  it('an extension with onChange still gets every update with the whole payload', async () => {
    const heard: onChangePayload[] = [];
    await changeDocument(
      [
        {
          async onChange(payload) {
            heard.push(payload);
          },
        },
      ],
      3,
    );
    expect(heard).toHaveLength(3);
    for (const payload of heard) {
      expect(payload).toMatchObject({ documentName: 'patched', socketId: '' });
      expect(payload.requestHeaders).toBeInstanceOf(Headers);
      expect(payload.requestParameters).toBeInstanceOf(URLSearchParams);
      expect(payload.update).toBeInstanceOf(Uint8Array);
    }
  });
});
