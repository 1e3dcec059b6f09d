/// <reference lib="dom" />
// Loaded by the 3D page before prismarine-viewer's script: it watches the page's mesher workers and images so
// the page says when what it was sent is drawn, on <html>: `data-columns` (chunk columns received),
// `data-outstanding` (sections still being meshed, the renderer's own rule), `data-meshed` (sections finished),
// `data-images` (textures loaded) and `data-frames` (animation frames drawn).
const root = document.documentElement;
const outstanding = new Set<string>();
const columns = new Set<string>();
let meshed = 0;
let images = 0;
let frameCount = 0;

function publish(): void {
  root.dataset.outstanding = String(outstanding.size);
  root.dataset.meshed = String(meshed);
  root.dataset.columns = String(columns.size);
  root.dataset.images = String(images);
}

/** The section a block position falls in, keyed as the mesher keys it. */
function sectionOf(message: { x: number; y: number; z: number }): string {
  return [message.x, message.y, message.z].map((v) => Math.floor(v / 16) * 16).join(',');
}

const NativeWorker = window.Worker;
window.Worker = class WatchedWorker extends NativeWorker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    this.addEventListener('message', (event: MessageEvent<{ type?: string; key?: string }>) => {
      if (event.data?.type !== 'sectionFinished' || typeof event.data.key !== 'string') return;
      outstanding.delete(event.data.key);
      meshed += 1;
      publish();
    });
  }

  override postMessage(message: unknown, options?: StructuredSerializeOptions | Transferable[]): void {
    const sent = message as { type?: string; x: number; y: number; z: number } | null;
    if (sent?.type === 'dirty') outstanding.add(sectionOf(sent));
    if (sent?.type === 'chunk') columns.add(`${sent.x},${sent.z}`);
    if (sent?.type === 'unloadChunk') columns.delete(`${sent.x},${sent.z}`);
    publish();
    super.postMessage(message, options as StructuredSerializeOptions);
  }
};

// three's ImageLoader makes its <img> with createElementNS: count the textures that arrive.
const createElementNS = document.createElementNS.bind(document) as (namespace: string | null, name: string) => Element;
document.createElementNS = ((namespace: string | null, name: string) => {
  const element = createElementNS(namespace, name);
  if (name === 'img') {
    element.addEventListener('load', () => {
      images += 1;
      publish();
    });
  }
  return element;
}) as typeof document.createElementNS;

function frame(): void {
  frameCount += 1;
  root.dataset.frames = String(frameCount);
  window.requestAnimationFrame(frame);
}
publish();
window.requestAnimationFrame(frame);
export {};
