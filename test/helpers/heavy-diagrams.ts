/** Boards whose Mermaid diagrams take long to lay out, for the tests of the preview threads. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { client } from './http.js';
import { connectYjs, eventually } from './realtime.js';

/** A state diagram that takes about half a second to lay out, different for every `seed` so no cache holds it. */
export function stateDiagram(seed: string): string {
  const states = 10;
  const name = (i: number) => `${['Idle', 'Loading', 'Ready', 'Saving', 'Failed'][i % 5]}${Math.floor(i / 5)}_${seed}`;
  const lines = ['stateDiagram-v2', `  [*] --> ${name(0)}`];
  for (let i = 0; i < states; i++) {
    lines.push(`  ${name(i)} --> ${name((i + 1) % states)}: next step ${i}`);
    lines.push(`  ${name(i)} --> ${name((i + 3) % states)}: on event ${i}`);
  }
  return [...lines, `  ${name(states - 1)} --> [*]`].join('\n');
}

/**
 * A board of `count` diagrams no cache has seen: written by a Yjs client, as
 * the browser writes, so that no REST write has laid them out already.
 */
export async function heavyBoard(url: string, count: number): Promise<string> {
  const api = client(url);
  const { id } = (await api.post('/api/boards')).body;
  const { body: added } = await api.post(`/api/boards/${id}/texts`, { x: 0, y: -200, content: 'Diagrams' });
  const { bbox: _bbox, created: _created, ...text } = added;
  const yjs = connectYjs(url, id);
  await yjs.synced;
  const seed = randomUUID().slice(0, 8);
  yjs.doc.transact(() => {
    for (let i = 0; i < count; i++) {
      const content = `\`\`\`mermaid\n${stateDiagram(`${seed}${i}`)}\n\`\`\``;
      yjs.doc.getMap('texts').set(`diagram-${i}`, { ...text, id: `diagram-${i}`, x: i * 700, y: 0, content });
    }
  });
  await eventually(async () => expect((await api.get(`/json/${id}`)).body.texts).toHaveLength(count + 1));
  yjs.destroy();
  return id;
}
