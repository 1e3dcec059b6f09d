/// <reference lib="dom" />

/** Builds an element with text content (never innerHTML: event data is untrusted). */
export function el(tag: string, attrs: Record<string, string> = {}, text?: string, children: readonly Node[] = []): HTMLElement {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  for (const child of children) node.appendChild(child);
  return node;
}

/** The element with this id (the page's static skeleton guarantees it). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`inspector: #${id} is missing`);
  return node as T;
}

/** Coalesces many updates into one render per animation frame (the page stays usable at high event rates). */
export function frameScheduler(render: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      render();
    });
  };
}

export function fmtMs(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(Math.round(value)) : '';
}
