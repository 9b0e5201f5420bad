/**
 * Streamed downloads, the service worker's side. A download of many chunks (an export) does not
 * have to become one Blob before the browser saves it: the page opens a MessagePort to this worker
 * (`DownloadStart`), then navigates a hidden frame to `download-stream/<id>/<name>`; the worker
 * answers that request with a stream of the chunks the page sends through the port, as an
 * attachment, so the browser writes the file as the chunks come. The stream asks for each chunk
 * (`pull`), which holds the page's export back to the pace of the disk.
 *
 * The page's side is streamTarget() in src/ui/export/export.ts.
 */

/** What the page sends the worker to announce a download (with the port as the transfer). */
export interface DownloadStart {
  type: 'download-stream';
  id: string;
  fileName: string;
  mime: string;
}

/** What the page sends through the port: a chunk, the end, or that the export failed or was cancelled. */
export type DownloadMessage = { chunk: Uint8Array<ArrayBuffer> } | { end: true } | { abort: string };

/**
 * What the worker sends back: it is ready for the request, wants the next chunk, or the user
 * cancelled the download; or a chunk's buffer, given back once copied (`spare`, for the next chunk).
 */
export type DownloadReply = 'ready' | 'pull' | 'cancelled' | { spare: ArrayBuffer };

/** The path under the page's scope the frame is sent to. */
export const DOWNLOAD_PATH = 'download-stream/';

/**
 * Bytes the stream holds before it stops asking for more: about one chunk (a run of an export, a few
 * MB), the next asked for while the browser writes it (they are the page's memory). Twice as much
 * measured slower, not faster (LINEITEM 12.4–15.9 s against 12.4–13.8 s in six alternating pairs).
 */
const QUEUED_BYTES = 4 << 20;

interface Pending {
  stream: ReadableStream<Uint8Array>;
  fileName: string;
  mime: string;
}

/** Registers the message and fetch handlers; call before other fetch handlers so its requests are its own. */
export function serveDownloadStreams(scope: ServiceWorkerGlobalScope): void {
  const pending = new Map<string, Pending>();
  scope.addEventListener('message', (event) => {
    const data = event.data as DownloadStart | { type: 'keep-alive' } | undefined;
    if (data?.type !== 'download-stream') return;
    const port = event.ports[0];
    pending.set(data.id, { stream: portStream(port), fileName: data.fileName, mime: data.mime });
    port.postMessage('ready' satisfies DownloadReply);
  });
  scope.addEventListener('fetch', (event) => {
    const url = new URL(event.request.url);
    const at = url.pathname.indexOf(`/${DOWNLOAD_PATH}`);
    if (at < 0) return;
    const id = url.pathname.slice(at + DOWNLOAD_PATH.length + 1).split('/')[0];
    const download = pending.get(id);
    if (!download) {
      event.respondWith(new Response('This download is no longer available.', { status: 404 }));
      return;
    }
    pending.delete(id);
    event.respondWith(new Response(download.stream, {
      headers: {
        'Content-Type': download.mime,
        'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(download.fileName)}`,
        'X-Content-Type-Options': 'nosniff',
      },
    }));
  });
}

/** Pieces a chunk is copied into: small enough for the allocator's reused blocks, not mapped each time. */
const PIECE_BYTES = 512 << 10;

/**
 * Enqueues a copy of `chunk`, in pieces, and not the chunk itself, whose buffer goes back to the
 * page to carry a later one. The stream's reader may hold a chunk after it is read, so a buffer it
 * was given cannot be reused; and a buffer transferred in does not count towards this worker's
 * garbage collection in some Chromium versions (150): as the worker makes next to no other garbage,
 * LINEITEM's export (775 MB) held every chunk (the renderer at 880 MB). Copies made here count and
 * are collected as the export goes (peak ~270–300 MB; promptMinorCollection lowers it). With the
 * buffers going round (export worker, page, here, page) LINEITEM's export took 12.3–12.9 s, against
 * 13.3–17.1 s copying each chunk whole into a new buffer here and in the export worker (alternating
 * builds, Chromium 150).
 */
function enqueueCopy(controller: ReadableStreamDefaultController<Uint8Array>, chunk: Uint8Array): void {
  for (let at = 0; at < chunk.length; at += PIECE_BYTES) controller.enqueue(chunk.slice(at, at + PIECE_BYTES));
}

/** Where promptMinorCollection() leaves its last object, so that its allocations cannot be optimised away. */
const sink: { last: unknown } = { last: null };

/**
 * Allocates a little short-lived garbage per chunk (an object per 256 bytes: ~0.2 MB for a 3.5 MB
 * chunk). The copies enqueued die young, but nothing else in this worker allocates, so V8 collected
 * them only when their external memory had grown large (LINEITEM's export peaked at 271–304 MB);
 * young allocations bring a minor collection every few chunks, which frees them (224–264 MB, and no
 * slower: 10.1–12.7 s against 12.4–13.8 s, six alternating pairs). The copies alone still bound the
 * memory should a V8 schedule its collections otherwise.
 */
function promptMinorCollection(bytes: number): void {
  let link: { next: unknown } | null = null;
  // Each object refers to the one before every other time: they die at once, none lives on.
  for (let i = bytes >> 8; i > 0; i--) link = { next: i & 1 ? null : link };
  sink.last = link;
}

/** The chunks the page sends through `port`, asked for one by one. */
function portStream(port: MessagePort): ReadableStream<Uint8Array> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  port.onmessage = (event: MessageEvent<DownloadMessage>) => {
    const m = event.data;
    if ('chunk' in m) {
      enqueueCopy(controller, m.chunk);
      promptMinorCollection(m.chunk.length);
      port.postMessage({ spare: m.chunk.buffer } satisfies DownloadReply, [m.chunk.buffer]);
    } else if ('end' in m) {
      controller.close();
      port.close();
    } else {
      controller.error(new Error(m.abort));
      port.close();
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        port.postMessage('pull' satisfies DownloadReply);
      },
      cancel() {
        // The user cancelled the download in the browser: the page stops its export.
        port.postMessage('cancelled' satisfies DownloadReply);
        port.close();
      },
    },
    { highWaterMark: QUEUED_BYTES, size: (piece) => piece.byteLength },
  );
}
