/**
 * Mermaid diagrams, rendered by the `mermaid` package, loaded only when a board
 * shows one. Mermaid bakes its colours into the SVG, so a diagram is drawn in
 * the app's scheme (theme.ts: the toggle's choice, else the system's) and drawn
 * again when the scheme switches.
 */
import { currentTheme, onThemeChange, type Theme } from '../theme.js';

let loading: Promise<typeof import('mermaid')['default']> | undefined;
let counter = 0;
/** Renders under way: until they finish, a diagram's box is its "Drawing diagram…" placeholder. */
const drawing = new Set<Promise<void>>();
/** The scheme mermaid was last initialised with. */
let initialised: Theme | null = null;
/** Each element showing a diagram, with the diagram's source, to draw it again in another scheme. */
const shown = new Map<HTMLElement, string>();

onThemeChange(() => {
  for (const [target, source] of shown) {
    // An element that left the canvas, or whose text is no longer a diagram (render.ts resets its classes), is forgotten.
    if (target.isConnected && target.classList.contains('mermaid')) void renderMermaid(source, target);
    else shown.delete(target);
  }
});

/** Resolves once no diagram is being drawn, so that sizes read then are the drawn ones. */
export async function diagramsDrawn(): Promise<void> {
  while (drawing.size) await Promise.all(drawing);
}

/** Mermaid, set to the scheme the page shows now (initialize again only when it changed). */
async function load() {
  loading ??= import('mermaid').then(({ default: mermaid }) => mermaid);
  const mermaid = await loading;
  const theme = currentTheme();
  if (theme !== initialised)
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: theme === 'dark' ? 'dark' : 'default' });
  initialised = theme;
  return mermaid;
}

/** Renders a diagram into `target`; on a syntax error shows the error instead. */
export function renderMermaid(source: string, target: HTMLElement): Promise<void> {
  shown.set(target, source);
  const render = draw(source, target).finally(() => drawing.delete(render));
  drawing.add(render);
  return render;
}

async function draw(source: string, target: HTMLElement): Promise<void> {
  try {
    const mermaid = await load();
    const { svg } = await mermaid.render(`mermaid-${++counter}`, source);
    // securityLevel "strict" makes mermaid sanitise its own SVG output.
    target.innerHTML = svg;
    target.classList.remove('mermaid-error');
  } catch (error) {
    target.textContent = `Diagram error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    target.classList.add('mermaid-error');
  }
}
