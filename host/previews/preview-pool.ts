/**
 * The preview pool: a few worker threads (piscina) that draw board previews,
 * SVG and PNG, and lay out Mermaid diagrams, so a heavy picture never holds
 * the event loop that answers every other request. A thread is handed a copy
 * of the board's maps (cheaper to clone than the document is to encode and
 * rebuild, and in the document's order, so it draws the same bytes), and the
 * caches stay on this side: the SVG per board state, the PNG per SVG.
 */
import { fileURLToPath } from 'node:url';
import { LRUCache } from 'lru-cache';
import { Piscina } from 'piscina';
import type * as Y from 'yjs';
import { errors } from '../../board/model/errors.js';
import { forgetView, memoized } from '../../board/reads/snapshot.js';
import { type PreviewOptions, previewMaps } from '../../board/render/preview.js';
import type { DrawnDiagram } from '../../board/render/preview-mermaid.js';
import type { BoardMode } from '../../schema/index.js';
import type { PreviewPngOptions } from './preview-png.js';
import type { PreviewAnswer, PreviewTask } from './preview-worker.js';

// Under vitest or tsx this module is TypeScript, and so is its worker, which then needs tsx's loader.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_FILE = fileURLToPath(new URL(`./preview-worker.${FROM_SOURCE ? 'ts' : 'js'}`, import.meta.url));
const PNG_CACHE_MAX_BYTES = 32 * 1024 * 1024;
/** Tasks waiting for a thread; past them a preview is refused as busy rather than queued without end. */
const MAX_QUEUED_TASKS = 64;
/** A thread's heap: a picture that needed more would stop its thread, not the server. */
const THREAD_HEAP_MB = 256;

export type PreviewPoolOptions = {
  /** Worker threads, started on first use and kept. */
  threads: number;
  /** How long a task may wait and run once a thread is up; past it the task is refused and its thread replaced. */
  timeoutMs: number;
};

type Pool = Piscina<PreviewTask, PreviewAnswer[PreviewTask['type']]>;

export class PreviewPool {
  /** The threads, once each has loaded the drawing code; none before the first preview. */
  private started: Promise<Pool> | undefined;
  private closed = false;
  private readonly pngs = new LRUCache<string, Uint8Array>({
    maxSize: PNG_CACHE_MAX_BYTES,
    sizeCalculation: (png) => png.byteLength,
  });

  constructor(private readonly options: PreviewPoolOptions) {}

  /**
   * The board's preview SVG (board/render/preview.ts), or one frame's, drawn in
   * a thread; cached per document state and frame (a frame the caller checked
   * exists: a board holds at most MAX_FRAMES, so the keys stay few).
   */
  svg(doc: Y.Doc, mode: BoardMode, options: PreviewOptions = {}): Promise<string> {
    const key = `svg:${mode}${options.frame === undefined ? '' : `:frame:${options.frame}`}`;
    const drawing = memoized(doc, key, () => this.run({ type: 'svg', maps: previewMaps(doc), mode, options }));
    // A refusal is not kept: the next read of the same state asks again.
    drawing.catch(() => forgetView(doc, key, drawing));
    return drawing;
  }

  /** An SVG rendered to PNG (preview-png.ts) in a thread; the same SVG with the same options is rendered once. */
  async png(svg: string, options: PreviewPngOptions = {}): Promise<Uint8Array> {
    const key = `${options.maxWidth ?? ''}|${options.maxHeight ?? ''}|${options.background ?? ''}|${svg}`;
    const cached = this.pngs.get(key);
    if (cached) return cached;
    const png = await this.run({ type: 'png', svg, options });
    this.pngs.set(key, png);
    return png;
  }

  /** Mermaid sources laid out in a thread: each drawn diagram, or null when it is not drawn. */
  diagrams(sources: string[]): Promise<(DrawnDiagram | null)[]> {
    return this.run({ type: 'diagrams', sources });
  }

  /** Stops the threads; a task still running is refused. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = await this.started?.catch(() => undefined);
    await pool?.destroy();
  }

  private async run<T extends PreviewTask>(task: T): Promise<PreviewAnswer[T['type']]> {
    if (this.closed) throw errors.previewUnavailable('crashed');
    const pool = await this.threads();
    try {
      const answer = await pool.run(task, { signal: AbortSignal.timeout(this.options.timeoutMs) });
      return answer as PreviewAnswer[T['type']];
    } catch (error) {
      throw refusal(error);
    }
  }

  /**
   * The threads, started on first use: a server that draws no preview starts
   * none, and a thread's start (loading the drawing code, about a second) does
   * not count against the first preview's time.
   */
  private threads(): Promise<Pool> {
    this.started ??= (async () => {
      const pool: Pool = new Piscina({
        filename: WORKER_FILE,
        minThreads: this.options.threads,
        maxThreads: this.options.threads,
        idleTimeout: Number.POSITIVE_INFINITY,
        maxQueue: MAX_QUEUED_TASKS,
        resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
        // The process's own flags (V8's heap sizing) are not a worker's to take.
        execArgv: FROM_SOURCE ? ['--import', 'tsx'] : [],
      });
      // A thread that stops fails its task, which is refused, and piscina replaces it: nothing more to do here.
      pool.on('error', () => {});
      try {
        // One task per thread, each taken by an idle one: every thread has loaded the drawing code.
        await Promise.all(Array.from({ length: this.options.threads }, () => pool.run({ type: 'ready' })));
        return pool;
      } catch (error) {
        this.started = undefined; // threads that cannot start are tried again at the next preview
        void pool.destroy();
        throw refusal(error);
      }
    })();
    return this.started;
  }
}

/** A task the pool did not finish, as the caller's error: timed out, refused as busy, or its thread stopped. */
function refusal(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (error.name === 'AbortError') return errors.previewUnavailable('timeout');
  if (error.message === 'Task queue is at limit') return errors.previewUnavailable('busy');
  // piscina's words for a thread that exited or was stopped under its task, and Node's codes for one out of memory.
  const code = (error as { code?: unknown }).code;
  if (
    /^worker exited with code|^Terminating worker thread/.test(error.message) ||
    (typeof code === 'string' && code.startsWith('ERR_WORKER'))
  )
    return errors.previewUnavailable('crashed');
  return error;
}
