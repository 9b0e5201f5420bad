/**
 * Svelte action: `use:sized={(el) => …}` calls back whenever a ResizeObserver reports that the element
 * changed size, for it to read its size then. Unlike `bind:clientHeight`, it never reads a size while
 * the page is being built: that read forces the browser to lay out the whole new page in the middle of
 * drawing it (measured ~20–40 ms each time a table opens), before the rows are in. The observer's first
 * report comes right after the browser's own layout, before anything is painted.
 */
export function sized<T extends HTMLElement>(node: T, onsize: (el: T) => void): { update(next: (el: T) => void): void; destroy(): void } {
  let callback = onsize;
  const observer = new ResizeObserver(() => callback(node));
  observer.observe(node);
  return {
    update(next) {
      callback = next;
    },
    destroy() {
      observer.disconnect();
    },
  };
}
