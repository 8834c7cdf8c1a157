/**
 * The operation table (host/operations/operations.ts) is the one definition of
 * every board operation: each row is on every surface it declares (its REST
 * routes served and described in OpenAPI with its words, its MCP tool listed
 * with its words, effect and icon, its /ws frame accepted), and no surface
 * carries an operation that has no row.
 */
import { describe, expect, it } from 'vitest';
import { routeUrl } from '../adapters/rest/operation-routes.js';
import { BATCH_OP_ARGS, MUTATION_FRAME_TYPES, MUTATION_FRAMES } from '../board/operations/operations.js';
import { McpToolArgs, McpToolOutputs, OPERATION_LIST, OPERATIONS } from '../host/operations/operations.js';
import { connectRawMcp } from './helpers/mcp-raw.js';
import { openJson } from './helpers/realtime.js';
import { useServer } from './helpers/server.js';

const t = useServer();

const BOARD = '/api/boards/:boardId';
const toolRows = OPERATION_LIST.filter((row) => row.tool);
const restRoutes = OPERATION_LIST.flatMap((row) => row.rest.map((route) => ({ row, route })));

/** The writes under a board that are the board's own, not an operation's: erase and locks. */
const BOARD_WRITES = [`DELETE ${BOARD}`, `POST ${BOARD}/lock`, `POST ${BOARD}/unlock`, `POST ${BOARD}/verify-key`];

describe('the operation table', () => {
  it("gives each row its tool's schemas and its frame's", () => {
    for (const [name, row] of Object.entries(OPERATIONS)) expect(row.name).toBe(name);
    for (const row of toolRows) {
      expect(row.args, row.name).toBe(McpToolArgs[row.name as keyof typeof McpToolArgs]);
      expect(row.result, row.name).toBe(McpToolOutputs[row.name as keyof typeof McpToolOutputs]);
    }
    expect(toolRows.map((row) => row.name).sort()).toEqual(Object.keys(McpToolArgs).sort());
    // A mutation's frame is its name unless the row names another, and takes its arguments without board_id.
    expect(OPERATIONS.add_text.frame).toBe('add_text');
    expect(OPERATIONS.set_lane.frame).toBe('lane_upsert');
    expect(OPERATIONS.batch.frame).toBeUndefined();
    for (const row of OPERATION_LIST.filter((row) => row.frame)) {
      expect(MUTATION_FRAMES[row.frame!], row.name).toBe(row.input);
      if (row.tool)
        expect(Object.keys((row.args as any).shape)).toEqual([
          ...Object.keys((row.input as any).shape),
          'board_id',
          'access_key',
        ]);
    }
    const frames = OPERATION_LIST.flatMap((row) => (row.frame ? [row.frame] : []));
    expect(frames.sort()).toEqual([...MUTATION_FRAME_TYPES].sort());
    // A batch op is named like its row's tool, or its frame (lane_upsert), with the frame's arguments.
    const framed = OPERATION_LIST.filter((row) => row.frame);
    for (const row of framed)
      expect(BATCH_OP_ARGS[row.name as keyof typeof BATCH_OP_ARGS], row.name).toBe(MUTATION_FRAMES[row.frame!]);
    expect(Object.keys(BATCH_OP_ARGS).sort()).toEqual(
      [...new Set(framed.flatMap((row) => [row.name, row.frame!]))].sort(),
    );
  });

  it('lists exactly the tool rows in tools/list, in table order, with their words, effect and icon', async () => {
    const mcp = await connectRawMcp(t.server.url);
    const { body } = await mcp.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await mcp.close();
    const tools: {
      name: string;
      description: string;
      annotations: Record<string, boolean>;
      icons: { src: string }[];
    }[] = body.result.tools;
    expect(tools.map((tool) => tool.name)).toEqual(toolRows.map((row) => row.name));
    for (const [index, row] of toolRows.entries()) {
      const tool = tools[index];
      expect(tool.description).toBe(row.tool!.description);
      expect(tool.icons).toEqual([{ src: `${t.server.url}/mcp/icons/${row.group}.svg` }]);
      expect(tool.annotations.readOnlyHint === true, row.name).toBe(row.effect === 'read');
      // A read-only tool's other hints go unsaid: the protocol ignores them.
      if (row.effect !== 'read')
        expect(tool.annotations.destructiveHint !== false, row.name).toBe(['replace', 'remove'].includes(row.effect));
      expect(tool.annotations.idempotentHint === true, row.name).toBe(['set', 'replace'].includes(row.effect));
    }
  });

  it('serves every REST route a row declares, and no other write under a board but the board’s own', () => {
    const served = new Set(t.server.server.routes.map(({ method, url }) => `${method} ${url}`));
    const declared = restRoutes.map(({ route }) => `${route.method} ${routeUrl(route)}`);
    for (const route of declared) expect(served, route).toContain(route);
    const boardWrites = [...served].filter((route) => /^(POST|DELETE) \/api\/boards\/:boardId/.test(route));
    expect(boardWrites.filter((route) => !declared.includes(route)).sort()).toEqual([...BOARD_WRITES].sort());
  });

  it("describes every row's REST route in OpenAPI with the row's words and body", async () => {
    const { body } = await t.api.get('/openapi.json');
    for (const { row, route } of restRoutes) {
      const path = routeUrl(route).replace(/:(\w+)/g, '{$1}');
      const described = body.paths[path]?.[route.method.toLowerCase()];
      expect(described, `${route.method} ${path}`).toBeDefined();
      expect(described.summary).toBe(route.summary);
      expect(described.tags).toEqual([row.group === 'board' ? 'boards' : row.group]);
      expect(described.responses['200'].description).toBe(route.answer);
      expect(described.requestBody !== undefined).toBe(route.body !== undefined);
    }
  });

  it("lists every edit row's REST route in llms.txt, with its body's fields", async () => {
    const { text } = await t.api.get('/llms.txt');
    const edit = text.slice(text.indexOf('## Edit'), text.indexOf('## Live'));
    for (const { route } of restRoutes.filter(({ row }) => row.kind !== 'host')) {
      const line = `${route.method} /api/boards/<id>${route.path.replace(/:(\w+)/g, '<$1>')}`;
      expect(edit, line).toContain(`\`${line}\``);
    }
    expect(edit).toContain('`POST /api/boards/<id>/texts` `{id?, x, y, content,');
  });

  it("accepts every row's frame on /ws, runs its row, and knows no other mutation frame", async () => {
    const { body: board } = await t.api.post('/api/boards', { mode: 'draw' });
    const ws = await openJson(t.server.url, board.id);
    try {
      // Empty arguments: each frame type is known, so its arguments are checked (and refused), never `unknown_frame`.
      for (const type of MUTATION_FRAME_TYPES) {
        ws.send({ type, ref: type, ...(type === 'set_board_title' && { title: 'Named' }) });
        const answer = await ws.next((frame) => frame.ref === type);
        if (type === 'set_board_title') expect(answer).toMatchObject({ type: 'ack', result: { title: 'Named' } });
        else expect(answer, type).toMatchObject({ type: 'error', code: 'invalid_payload' });
      }
      // Tools without a frame are not frames; batch is one of its own (it may continue over several frames).
      for (const name of toolRows.filter((row) => !row.frame && row.name !== 'batch').map((row) => row.name)) {
        ws.send({ type: name, ref: `no-${name}` });
        expect(await ws.next((frame) => frame.ref === `no-${name}`)).toMatchObject({ code: 'unknown_frame' });
      }
    } finally {
      ws.close();
    }
  });
});
