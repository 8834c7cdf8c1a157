/**
 * add_text, add_link and add_image answer the box the item is laid out in
 * (`bbox`: its laid-out `width` and `height`) on every surface (MCP, REST, the JSON channel's ack), the same
 * figures, valid against the results' schemas; a Mermaid text is as big as
 * the preview draws it. (The app's own sizes: test/browser/item-sizes.test.ts.)
 */

import { describe, expect, it } from 'vitest';
import { McpToolOutputs } from '../host/operations/operations.js';
import { LaidOutText } from '../schema/index.js';
import { PNG_1PX } from './helpers/http.js';
import { connectMcp } from './helpers/mcp.js';
import { connectJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();

describe('laid-out sizes in write results', () => {
  it('MCP, REST and the JSON channel answer the same width and height for the same item', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const text = { x: 0, y: 0, content: '# Plan\nShip the preview\n- [ ] sizes', postit: true, author: 'ai:alpha' };
    const rest = (await t.api.post(`/api/boards/${id}/texts`, text)).body;
    const { created, ...answer } = rest;
    expect(created).toBe(true);
    expect(LaidOutText.parse(answer)).toBeTruthy();
    // Sent back as it came, the answer updates the text: its box is taken and dropped.
    const again = await t.api.post(`/api/boards/${id}/texts`, { ...rest, content: 'changed' });
    expect(again.status).toBe(200);
    expect(rest.bbox.width).toBeGreaterThan(60);
    expect(rest.bbox.height).toBeGreaterThan(60);

    const mcp = await connectMcp(t.server.url);
    const viaMcp: any = await mcp.call('add_text', { board_id: id, ...text });
    expect(McpToolOutputs.add_text.parse(viaMcp)).toBeTruthy();
    expect([viaMcp.bbox.width, viaMcp.bbox.height]).toEqual([rest.bbox.width, rest.bbox.height]);
    const link: any = await mcp.call('add_link', { board_id: id, x: 0, y: 200, url: 'https://example.org/docs' });
    expect(McpToolOutputs.add_link.parse(link)).toBeTruthy();
    expect(link.bbox).toEqual({ x: 0, y: 200, width: expect.any(Number), height: 32 });
    const image: any = await mcp.call('add_image', {
      board_id: id,
      x: 0,
      y: 300,
      width: 64,
      height: 48,
      dataUrl: PNG_1PX,
    });
    // An image's laid-out size is its own, answered as ever.
    expect([image.width, image.height]).toEqual([64, 48]);
    await mcp.close();

    const json = await connectJson(t.server.url, id);
    json.send({ type: 'add_text', ref: 7, ...text });
    const ack = await json.next((frame) => frame.type === 'ack' && frame.ref === 7);
    expect([(ack as any).result.bbox.width, (ack as any).result.bbox.height]).toEqual([
      rest.bbox.width,
      rest.bbox.height,
    ]);
    json.close();
  });

  it("a text's own width is its box's width; longer content is taller, not wider; none set, none stored", async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const short = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'one line', width: 240 })).body;
    const long = (
      await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'one line '.repeat(40), width: 240 })
    ).body;
    expect([short.bbox.width, long.bbox.width]).toEqual([240, 240]);
    expect(long.bbox.height).toBeGreaterThan(short.bbox.height * 4);
    const auto = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content: 'word '.repeat(200) })).body;
    expect(auto.bbox.width).toBe(480);
    expect(auto.width).toBeUndefined();
  });

  it('a Mermaid text is as big as the preview draws it', async () => {
    const { id } = (await t.api.post('/api/boards')).body;
    const content = '```mermaid\nflowchart LR\n  A-->B\n  B-->|yes|C[Done]\n```';
    const diagram = (await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content })).body;
    const svg = (await t.api.get(`/svg-preview/${id}`)).text;
    const frame = /<g class="text diagram[^"]*"[^>]*><rect x="0" y="0" width="(\d+)" height="(\d+)"/.exec(svg);
    expect([Number(frame![1]), Number(frame![2])]).toEqual([diagram.bbox.width, diagram.bbox.height]);
  });
});
