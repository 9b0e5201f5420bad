/**
 * The service worker's streamed downloads (src/sw/download-stream.ts), driven in Node as the page
 * drives them: announce a download with a port, request its URL, send chunks as the stream asks for
 * them. The response must be the chunks in order, as an attachment; the stream must ask for chunks
 * only while it has room (that is what holds a fast export back to the disk's pace); an export that
 * fails must fail the download, and a download the user cancels must tell the page.
 * (The whole path in Chromium, to a saved file, is in the browser tests.)
 */
import { describe, expect, it } from 'vitest';
import { DOWNLOAD_PATH, serveDownloadStreams, type DownloadMessage, type DownloadReply, type DownloadStart } from '../src/sw/download-stream.ts';

interface FetchLike {
  request: Request;
  respondWith(r: Response | Promise<Response>): void;
}

/** A stand-in for the worker's global scope: the handlers it registers, called as the browser would. */
function fakeScope() {
  const handlers: Record<string, ((e: unknown) => void)[]> = {};
  const scope = { addEventListener: (type: string, fn: (e: unknown) => void) => (handlers[type] ??= []).push(fn) };
  serveDownloadStreams(scope as unknown as ServiceWorkerGlobalScope);
  return {
    message(data: unknown, ports: MessagePort[]) {
      for (const fn of handlers.message) fn({ data, ports });
    },
    fetch(url: string): Response | null {
      let response: Response | null = null;
      const event: FetchLike = { request: new Request(url), respondWith: (r) => void (response = r as Response) };
      for (const fn of handlers.fetch) fn(event);
      return response;
    },
  };
}

/** Announces a download; returns the page's end of the port and the replies it gets. */
async function announce(scope: ReturnType<typeof fakeScope>, id: string) {
  const { port1, port2 } = new MessageChannel();
  const replies: DownloadReply[] = [];
  const ready = new Promise<void>((resolve) => {
    port1.onmessage = (e: MessageEvent<DownloadReply>) => {
      replies.push(e.data);
      if (e.data === 'ready') resolve();
    };
  });
  const start: DownloadStart = { type: 'download-stream', id, fileName: 'lineitem é.csv', mime: 'text/csv;charset=utf-8' };
  scope.message(start, [port2]);
  await ready;
  return { port: port1, replies };
}

const send = (port: MessagePort, m: DownloadMessage, transfer: Transferable[] = []) => port.postMessage(m, transfer);
const tick = () => new Promise((r) => setTimeout(r, 20));

describe('streamed downloads (service worker)', () => {
  it('answers its URL with the chunks in order, as an attachment, asking for each while it has room', async () => {
    const scope = fakeScope();
    const { port, replies } = await announce(scope, 'a1');
    const response = scope.fetch(`https://example.test/app/${DOWNLOAD_PATH}a1/lineitem.csv`)!;
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename*=UTF-8''lineitem%20%C3%A9.csv`);
    expect(response.headers.get('Content-Type')).toBe('text/csv;charset=utf-8');
    await tick();
    // Asked for one chunk at the start; not read yet, it asks for more only up to its queue's room
    // (4 MB: two chunks of 3 MB).
    expect(replies.filter((r) => r === 'pull')).toHaveLength(1);
    const MB3 = 3 << 20;
    const chunks = Array.from({ length: 10 }, (_, i) => new Uint8Array(MB3).fill(65 + i));
    for (const chunk of chunks.slice(0, 6)) send(port, { chunk }, [chunk.buffer]);
    await tick();
    expect(replies.filter((r) => r === 'pull').length).toBeLessThanOrEqual(2);
    // A chunk that is a view of a larger buffer: only the view is written.
    const inLarger = new Uint8Array(new ArrayBuffer(MB3 + 100), 0, 10).fill(10);
    for (const chunk of [...chunks.slice(6), inLarger]) send(port, { chunk }, [chunk.buffer]);
    send(port, { end: true });
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body.length).toBe(10 * MB3 + 10);
    for (let i = 0; i < 10; i++) expect(body.subarray(i * MB3, (i + 1) * MB3).every((b) => b === 65 + i)).toBe(true);
    expect(body.subarray(10 * MB3).every((b) => b === 10)).toBe(true);
    // Each chunk's buffer comes back, whole, once copied: the page puts a later chunk in it.
    await tick();
    const spares = replies.filter((r) => typeof r === 'object').map((r) => r.spare.byteLength);
    expect(spares).toEqual([...Array.from({ length: 10 }, () => MB3), MB3 + 100]);
    // Each id serves one request.
    expect(scope.fetch(`https://example.test/app/${DOWNLOAD_PATH}a1/lineitem.csv`)!.status).toBe(404);
  });

  it('fails the download when the export fails or is cancelled', async () => {
    const scope = fakeScope();
    const { port } = await announce(scope, 'b2');
    const response = scope.fetch(`https://example.test/${DOWNLOAD_PATH}b2/x.csv`)!;
    const chunk = new TextEncoder().encode('partial\n');
    send(port, { chunk }, [chunk.buffer]);
    send(port, { abort: 'The export was cancelled.' });
    await expect(response.text()).rejects.toThrow('The export was cancelled.');
  });

  it('tells the page when the user cancels the download', async () => {
    const scope = fakeScope();
    const { replies } = await announce(scope, 'c3');
    const response = scope.fetch(`https://example.test/${DOWNLOAD_PATH}c3/x.csv`)!;
    await response.body!.cancel();
    await tick();
    expect(replies).toContain('cancelled');
  });

  it('leaves every other request to the rest of the worker', () => {
    const scope = fakeScope();
    expect(scope.fetch('https://example.test/app/index.html')).toBeNull();
    expect(scope.fetch('https://example.test/app/assets/index.js')).toBeNull();
  });
});
