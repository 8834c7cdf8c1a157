/**
 * tools/list is built for agents: a host hands the model each tool's name,
 * title, description and input schema before its first call, so those stay
 * within TOOL_LIST_BUDGET_BYTES (icons, annotations and output schemas stay
 * with the host); every argument, nested ones too, is typed and described
 * unless its name says what it is;
 * and a misspelt argument is refused naming the one meant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelFacingBytes, TOOL_LIST_BUDGET_BYTES } from '../adapters/mcp/tool-list.js';
import { connectMcp } from './helpers/mcp.js';
import { useServer } from './helpers/server.js';

const t = useServer();
let mcp: Awaited<ReturnType<typeof connectMcp>>;
let tools: {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, any>;
  outputSchema?: Record<string, any>;
}[];

beforeAll(async () => {
  mcp = await connectMcp(t.server.url);
  tools = (await mcp.client.listTools()).tools as typeof tools;
});
afterAll(() => mcp.close());

/** Every property of a schema, recursively (objects, array items, anyOf branches), with its path. */
function* propertiesOf(schema: Record<string, any>, path: string): Generator<[string, Record<string, any>]> {
  for (const [name, property] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
    yield [`${path}.${name}`, property];
    yield* propertiesOf(property, `${path}.${name}`);
  }
  if (schema.items) yield* propertiesOf(schema.items, `${path}[]`);
  for (const branch of schema.anyOf ?? []) yield* propertiesOf(branch, path);
}

const isTyped = (schema: Record<string, any>): boolean =>
  schema.type !== undefined ||
  Array.isArray(schema.enum) ||
  'const' in schema ||
  (Array.isArray(schema.anyOf) && schema.anyOf.every(isTyped));

const property = (tool: string, path: string) => {
  let schema: Record<string, any> = tools.find((candidate) => candidate.name === tool)!.inputSchema;
  for (const name of path.split('.')) schema = schema.properties[name];
  return schema;
};

describe('tools/list', () => {
  it(`hands the model at most ${TOOL_LIST_BUDGET_BYTES} bytes: name, title, description and input schema of every tool`, () => {
    const read = tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema }));
    const bytes = Buffer.byteLength(JSON.stringify(read));
    expect(bytes).toBeLessThanOrEqual(TOOL_LIST_BUDGET_BYTES);
    // The figure the benchmark reports is this one.
    expect(modelFacingBytes(tools as never)).toBe(bytes);
  });

  it('gives every tool a title, an icon and an outputSchema of type object', () => {
    const lacking = tools.filter(
      (tool: any) => !tool.title || !tool.icons?.[0]?.src.endsWith('.svg') || tool.outputSchema?.type !== 'object',
    );
    expect(lacking.map((tool) => tool.name)).toEqual([]);
  });

  /** An import item's field the tool it names describes (`content.lines[]` takes draw_stroke args: `points`). */
  const describedByItsTool = (path: string) => {
    const match = /^create_board\.content\.(\w+)\[\]\.(\w+)$/.exec(path);
    if (!match) return false;
    const tool = property('create_board', 'content').properties[match[1]].description.split(' ')[0];
    return typeof property(tool, match[2]).description === 'string';
  };

  /** Arguments whose name says what they are: a description would only repeat it ("Author" for author). */
  const SAYS_ITSELF = new Set([
    'board_id',
    'access_key',
    'author',
    'id',
    'name',
    'label',
    'kind',
    'done',
    'assignee',
    'column_id',
  ]);
  const namesItself = (path: string) =>
    SAYS_ITSELF.has(
      path
        .split(/[.[\]]+/)
        .filter(Boolean)
        .at(-1) ?? '',
    );

  it('types every argument, nested ones too, and describes every one whose name does not say what it is', () => {
    const untyped: string[] = [];
    const undescribed: string[] = [];
    for (const tool of tools) {
      for (const [path, schema] of propertiesOf(tool.inputSchema, tool.name)) {
        if (!isTyped(schema)) untyped.push(path);
        if (
          (typeof schema.description !== 'string' || schema.description === '') &&
          !describedByItsTool(path) &&
          !namesItself(path)
        )
          undescribed.push(path);
      }
    }
    expect(untyped).toEqual([]);
    expect(undescribed).toEqual([]);
  });

  it('gives closed sets as enums', () => {
    expect(property('add_text', 'color').enum).toEqual(expect.arrayContaining(['auto', 'red', 'lavender']));
    expect(property('draw_stroke', 'color').enum).toContain('lavender');
    expect(property('create_task', 'color').enum).toEqual(expect.arrayContaining(['red', 'blue', 'green']));
    expect(property('create_task', 'priority').enum).toEqual(expect.arrayContaining(['H', 'M', 'L']));
    expect(property('query_tasks', 'priority').enum).toEqual(expect.arrayContaining(['H', 'M', 'L']));
    expect(property('create_board', 'mode').enum).toEqual(['draw', 'todo']);
    expect(property('set_board_mode', 'mode').enum).toEqual(['draw', 'todo']);
    expect(property('create_board', 'template').enum).toEqual(['kanban', 'sprint', 'bugs', 'none']);
    expect(property('create_board', 'lock').enum).toEqual(['write', 'all']);
    expect(property('move', 'kind').enum).toEqual(expect.arrayContaining(['texts', 'strokes', 'images']));
    expect(property('draw_stroke', 'anchors.start.kind').enum).toEqual(['text', 'image', 'shape']);
    expect(property('export_tasks', 'format').enum).toEqual(['csv', 'markdown']);
  });

  it('gives points, content, dates and timeout_ms real schemas', () => {
    const points = property('draw_stroke', 'points');
    expect(points.anyOf.map((branch: { type: string }) => branch.type)).toEqual(['array', 'array', 'string']);
    const content = property('create_board', 'content');
    expect(content.type).toBe('object');
    for (const key of ['texts', 'lines', 'images', 'columns', 'tasks', 'lanes'])
      expect(content.properties[key].type, key).toBe('array');
    expect(property('create_task', 'due_date').format).toBe('date');
    expect(property('update_task', 'due_date').format).toBe('date');
    expect(property('query_tasks', 'due_before').format).toBe('date');
    expect(property('query_tasks', 'due_after').format).toBe('date');
    expect(property('wait_for_update', 'timeout_ms')).toMatchObject({
      type: 'number',
      minimum: 1_000,
      maximum: 55_000,
      default: 25_000,
    });
  });

  it('types import items: the tool whose arguments each takes, the fields it requires, and those only an import has', () => {
    const items = (key: string) => property('create_board', 'content').properties[key];
    expect(items('texts')).toMatchObject({
      description: expect.stringMatching(/add_text.*add_link/),
      items: { type: 'object', properties: { url: { type: 'string' }, sourceId: { type: 'string' } } },
    });
    expect(items('lines').items).toMatchObject({
      required: ['points'],
      properties: { points: { type: ['array', 'string'] } },
    });
    expect(items('images').items).toMatchObject({
      required: ['width', 'height', 'dataUrl'],
      properties: { width: { type: 'number' }, dataUrl: { type: 'string' }, sourceId: { type: 'string' } },
    });
    expect(items('columns').items).toMatchObject({ required: ['title'], properties: { title: { type: 'string' } } });
    expect(items('tasks').items).toMatchObject({
      required: ['name', 'columnIndex'],
      properties: { columnIndex: { type: 'integer', minimum: 0 } },
    });
    expect(items('lanes').items).toMatchObject({
      required: ['lane', 'title'],
      properties: { lane: { type: 'integer' } },
    });
    for (const key of ['texts', 'lines', 'images', 'columns', 'tasks', 'lanes'])
      for (const required of items(key).items.required ?? [])
        expect(items(key).items.properties, `${key}.${required}`).toHaveProperty(required);
  });

  it('says what becomes of a colour name it does not know, wherever a colour is taken', () => {
    // Texts and strokes take any value (the contract: it becomes auto); columns and tasks refuse one outside their enum.
    for (const [tool, path] of [
      ['add_text', 'color'],
      ['draw_stroke', 'color'],
    ])
      expect(property(tool, path).description, `${tool}.${path}`).toMatch(/other values: auto/i);
    for (const tool of ['create_column', 'update_column', 'create_task', 'update_task', 'query_tasks'])
      expect(property(tool, 'color').enum, tool).toEqual(['red', 'blue', 'green', '']);
  });

  it("says once, in the server's instructions, what board_id and access_key are, not by a pattern, a format or words repeated in every tool", () => {
    const json = JSON.stringify({ tools });
    expect(json).not.toContain('[0-9a-f]{8}');
    for (const tool of tools.filter((candidate) => candidate.inputSchema.properties?.board_id)) {
      expect(tool.inputSchema.properties.board_id, tool.name).toEqual({ type: 'string' });
      expect(tool.inputSchema.properties.access_key, tool.name).toEqual({ type: 'string' });
    }
    const instructions = mcp.client.getInstructions() ?? '';
    expect(instructions).toContain("board_id, the board's UUID");
    expect(instructions).toContain("access_key, the board's key");
  });
});

describe('an unknown argument', () => {
  it('is refused naming the one meant: colour → color', async () => {
    const { board_id } = await mcp.call('create_board', {});
    let answer: string;
    try {
      // An isError result: its JSON is its text.
      answer = (await mcp.raw('add_text', { board_id, x: 0, y: 0, content: 'hi', colour: 'red' })).content[0].text;
    } catch (error) {
      // A JSON-RPC error rather than an isError result: the message is the same.
      answer = JSON.stringify({ message: (error as Error).message, data: (error as { data?: unknown }).data });
    }
    expect(answer).toContain('did you mean \\"color\\"?');
    expect(answer).toContain('colour');
  });

  it('is refused on every board tool, not only create_board', async () => {
    const { board_id } = await mcp.call('create_board', { mode: 'todo' });
    const result = await mcp
      .raw('list_tasks', { board_id, bord: 1 })
      .catch((error: Error) => ({ isError: true, content: [{ text: error.message }] }));
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain('unknown key \\"bord\\"');
  });
});
