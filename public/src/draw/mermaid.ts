/** Mermaid diagrams, rendered by the `mermaid` package, loaded only when a board shows one. */
let loading: Promise<(typeof import('mermaid'))['default']> | undefined;
let counter = 0;
/** Renders under way: until they finish, a diagram's box is its "Drawing diagram…" placeholder. */
const drawing = new Set<Promise<void>>();

/** Resolves once no diagram is being drawn, so that sizes read then are the drawn ones. */
export async function diagramsDrawn(): Promise<void> {
  while (drawing.size) await Promise.all(drawing);
}

function load() {
  loading ??= import('mermaid').then(({ default: mermaid }) => {
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark ? 'dark' : 'default' });
    return mermaid;
  });
  return loading;
}

/** Renders a diagram into `target`; on a syntax error shows the error instead. */
export function renderMermaid(source: string, target: HTMLElement): Promise<void> {
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
