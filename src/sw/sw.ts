/**
 * The service worker: the whole app precached on the first visit, so the page works offline after
 * (workbox, its manifest injected by vite-plugin-pwa), and streamed downloads (download-stream.ts).
 * It caches only the app's own files: the user's files are never sent anywhere.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { DOWNLOAD_PATH, serveDownloadStreams } from './download-stream.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

// First, so that its requests never reach the navigation fallback.
serveDownloadStreams(self);

void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [new RegExp(`/${DOWNLOAD_PATH}`)] }));
