import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/** The product version lives in the repository root (`/VERSION`), one line. */
function readAppVersion(): string {
  const file = fileURLToPath(new URL('../VERSION', import.meta.url));
  const version = readFileSync(file, 'utf8').trim();
  if (!version) {
    throw new Error(`${file} is empty: it must hold the product version, e.g. 3.4.10`);
  }
  return version;
}

/**
 * Publishes the front-end version as `version.json` ({"version": "..."}):
 * emitted into dist at build time and served at /version.json by the dev server.
 * The version dialog reads it (spec 1 §7 "GET version.json").
 */
function versionJsonPlugin(version: string): Plugin {
  const body = JSON.stringify({ version });
  return {
    name: 'portalwright-version-json',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (req.url?.split('?')[0] === '/version.json') {
          res.setHeader('Content-Type', 'application/json');
          res.setHeader('Cache-Control', 'no-store');
          res.end(body);
          return;
        }
        next();
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: body });
    },
  };
}

const appVersion = readAppVersion();
const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  base: './',
  plugins: [react(), versionJsonPlugin(appVersion)],
  define: {
    __APP_VERSION__: JSON.stringify(appVersion),
  },
  server: {
    // src/architecture.test.ts reads ../docs/architecture.md (its "Web folders" table).
    fs: { allow: ['.', '../docs'] },
    proxy: {
      '/api': { target: backend, ws: true },
      '/healthz': backend,
      '/readyz': backend,
    },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    rollupOptions: {
      // The app, and the API page (Swagger UI over the server's OpenAPI document) apart from
      // it: no page of the app loads the viewer.
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        apidocs: fileURLToPath(new URL('api-docs.html', import.meta.url)),
      },
    },
  },
  test: {
    environment: 'happy-dom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    testTimeout: 60_000, // beside the Go and browser tests (scripts/test.sh) a machine is busy
    // Every core: Vitest 4 leaves one to the main process by default, which on a two-core
    // machine runs the files one at a time (the suite took twice as long).
    maxWorkers: availableParallelism(),
    // Each test file in a VM context of a worker thread instead of a process of its own: a
    // third less CPU over the suite (CI time, issue 32 item 5).
    pool: 'vmThreads',
  },
});
