/**
 * Baseline for the memory of loaded boards: this process builds N plain Y.Docs
 * holding the same 20 items each and reports the resident memory they add.
 */
import * as Y from 'yjs';

const count = Number(process.argv[2] ?? 1000);
const rss = () => process.memoryUsage().rss;
const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));
await settle();
const before = rss();
const docs: Y.Doc[] = [];
const now = new Date().toISOString();
for (let d = 0; d < count; d++) {
  const doc = new Y.Doc();
  doc.transact(() => {
    const texts = doc.getMap('texts');
    const lines = doc.getMap('lines');
    for (let i = 0; i < 10; i++)
      texts.set(`t${i}`, { id: `t${i}`, x: i * 10, y: 0, content: `note ${i}`, author: 'ai:bench', last_updated: now });
    for (let i = 0; i < 10; i++)
      lines.set(`l${i}`, {
        id: `l${i}`,
        points: [
          [i, 0],
          [i + 5, 5],
          [i + 10, 0],
        ],
        color: 'blue',
        width: 3,
        author: 'ai:bench',
        last_updated: now,
      });
  });
  docs.push(doc);
}
await settle();
console.log(JSON.stringify({ bytesPerDoc: (rss() - before) / count, docs: docs.length }));
