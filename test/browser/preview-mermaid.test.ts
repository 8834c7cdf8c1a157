/**
 * The preview's Mermaid against mermaid's own reading (the package the app
 * draws with, run in Chromium): for each diagram of a corpus of what people
 * write, the preview either draws the nodes, labels and links mermaid reads,
 * or shows the diagram's source, framed. Never a different diagram.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { MERMAID_CORPUS } from '../fixtures/mermaid-corpus.js';
import { useChromium } from '../helpers/pages.js';
import { useServer } from '../helpers/server.js';

const t = useServer();
const chrome = useChromium();

/** What a diagram shows: its node labels, its group titles, its link labels, sorted. */
type Reading = { nodes: string[]; groups: string[]; links: string[] };

/** Mermaid's reading of every corpus diagram, from its parser's database (undefined: a type the preview never draws). */
async function mermaidReadings(): Promise<(Reading | undefined)[]> {
  const page = await chrome.browser.newPage();
  await page.setContent('<html><body></body></html>');
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js') });
  const readings = await page.evaluate(
    async (sources) => {
      const { mermaid } = window as unknown as { mermaid: any };
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
      const results: ({ nodes: string[]; groups: string[]; links: string[] } | undefined)[] = [];
      for (const source of sources) {
        const { db, type } = await mermaid.mermaidAPI.getDiagramFromText(source);
        if (db.getActors) {
          // Sequence: participants, and messages (notes, type 2, and block markers, without ends, apart).
          const messages = db.getMessages().filter((m: any) => m.from && m.to && m.type !== 2);
          results.push({
            nodes: [...db.getActors().values()].map((actor: any) => actor.description),
            groups: [],
            links: messages.map((m: any) => m.message),
          });
        } else if (db.getData && type !== 'mindmap') {
          const data = db.getData();
          const shown = data.nodes.filter((n: any) => !n.isGroup && !/^state(Start|End)$/.test(n.shape));
          results.push({
            nodes: shown.map((n: any) => n.label),
            groups: data.nodes.filter((n: any) => n.isGroup).map((n: any) => n.label),
            links: data.edges.map((e: any) => e.label ?? ''),
          });
        } else results.push(undefined);
      }
      return results;
    },
    MERMAID_CORPUS.map((entry) => entry.source),
  );
  await page.close();
  return readings.map(
    (reading) =>
      reading && {
        nodes: reading.nodes.sort(),
        groups: reading.groups.sort(),
        links: reading.links.sort(),
      },
  );
}

const decode = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The texts of every element of a class in a drawn diagram; `first` keeps only each element's first text. */
function texts(svg: string, element: string, className: string, first = false): string[] {
  const found: string[] = [];
  const pattern = new RegExp(`<${element} class="${className}"[^>]*?(?:/>|>([\\s\\S]*?)</${element}>)`, 'g');
  for (const [, inner = ''] of svg.matchAll(pattern)) {
    const all = [...inner.matchAll(/<text[^>]*>([\s\S]*?)<\/text>/g)].map(([, t]) => decode(t.replace(/<[^>]+>/g, '')));
    found.push(first ? (all[0] ?? '') : all.join('\n'));
  }
  return found;
}

/** The preview's reading of a drawn diagram (its `<svg class="mermaid">`): link labels are those of its texts that mermaid's are. */
function previewReading(svg: string, sequence: boolean, truth: Reading): Reading {
  if (sequence)
    return {
      nodes: [...new Set(texts(svg, 'g', 'actor'))].sort(),
      groups: [],
      links: texts(svg, 'g', 'message').sort(),
    };
  const links = svg.match(/<(?:polyline|path) class="(?:edge|class-relationship|er-relationship)"/g)?.length ?? 0;
  // Every text of the drawing once: a label mermaid shows must be among them, each once per link.
  const pool = [...svg.matchAll(/<text[^>]*>([\s\S]*?)<\/text>/g)].map(([, t]) => decode(t.replace(/<[^>]+>/g, '')));
  const labels = truth.links.filter(Boolean).filter((label) => {
    const at = pool.indexOf(label);
    if (at >= 0) pool.splice(at, 1);
    return at >= 0;
  });
  return {
    nodes: [...texts(svg, 'g', 'node'), ...texts(svg, 'g', 'class-node', true), ...texts(svg, 'g', 'entity', true)]
      .filter(Boolean)
      .sort(),
    groups: texts(svg, 'g', 'subgraph', true).sort(),
    links: [...labels, ...Array<string>(Math.max(0, links - labels.length)).fill('')].sort(),
  };
}

describe('the preview draws Mermaid as mermaid reads it, or shows the source', { timeout: 120_000 }, () => {
  it('each diagram of the corpus: the same nodes, groups and links as mermaid, or the framed source', async () => {
    const readings = await mermaidReadings();
    const outcomes: string[] = [];
    for (const [index, { name, source }] of MERMAID_CORPUS.entries()) {
      const { id } = (await t.api.post('/api/boards')).body;
      const content = `\`\`\`mermaid\n${source}\n\`\`\``;
      await t.api.post(`/api/boards/${id}/texts`, { x: 0, y: 0, content });
      const svg = (await t.api.get(`/svg-preview/${id}`)).text;
      const drawn = /<svg class="mermaid"[\s\S]*<\/svg>/.exec(svg)?.[0];
      if (!drawn) {
        expect(svg, name).toContain('(not drawn)');
        outcomes.push(`${name}: source`);
        continue;
      }
      const truth = readings[index];
      expect(truth, `${name}: drawn, though mermaid reads no graph in it`).toBeDefined();
      expect(previewReading(drawn, source.startsWith('sequenceDiagram'), truth!), name).toEqual(truth);
      outcomes.push(`${name}: drawn`);
    }
    // The common syntax is drawn, not only refused safely.
    for (const name of ['flowchart compact', 'flowchart compact labels', 'flowchart semicolons', 'sequence', 'er'])
      expect(outcomes).toContain(`${name}: drawn`);
    console.log(outcomes.join('\n'));
  });
});
