// Server lifecycle for the browser tests: one real `portalwright serve` per test file,
// on a free loopback port, with its own temporary data directory.
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

export const E2E_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = path.resolve(E2E_DIR, '..');
export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'admin-e2e-pass';

const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;
const POLL_MS = 100;
const BUILD_LOCK = path.join(os.tmpdir(), 'portalwright-e2e-build.lock');
const BUILD_LOCK_STALE_MS = 15 * 60_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The product version from <repo>/VERSION, e.g. "3.4.10". */
export function productVersion() {
  return fs.readFileSync(path.join(REPO_ROOT, 'VERSION'), 'utf8').trim();
}

// Servers still running when this process ends (a crash, a cancelled run) are killed with it,
// and their data directories removed.
const liveServers = new Set();
const liveDataDirs = new Set();
process.once('exit', () => {
  for (const child of liveServers) child.kill('SIGKILL');
  for (const dir of liveDataDirs) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
  process.once(signal, () => process.exit(code));
}

let binaryPromise;

/**
 * The server binary: $PORTALWRIGHT_BIN, or <repo>/bin/portalwright after `make build`.
 * Concurrent test files (separate processes under `node --test`) take a lock file in
 * os.tmpdir() so only one `make build` runs at a time; the ones after it find make's
 * targets up to date, so the build effectively happens once.
 */
export function serverBinary() {
  binaryPromise ??= resolveBinary();
  return binaryPromise;
}

async function resolveBinary() {
  const fromEnv = process.env.PORTALWRIGHT_BIN;
  if (fromEnv) {
    const bin = path.resolve(fromEnv);
    if (!isExecutable(bin)) throw new Error(`PORTALWRIGHT_BIN=${fromEnv}: not an executable file`);
    return bin;
  }
  const bin = path.join(REPO_ROOT, 'bin', 'portalwright');
  await withBuildLock(async () => {
    try {
      await execFileP('make', ['build'], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 });
    } catch (err) {
      throw new Error(`make build failed in ${REPO_ROOT}:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    }
  });
  if (!isExecutable(bin)) throw new Error(`make build did not produce ${bin}`);
  return bin;
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

async function withBuildLock(fn) {
  for (;;) {
    try {
      const fd = fs.openSync(BUILD_LOCK, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      if (lockIsStale()) {
        fs.rmSync(BUILD_LOCK, { force: true });
        continue;
      }
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(BUILD_LOCK, { force: true });
  }
}

function lockIsStale() {
  try {
    const pid = Number(fs.readFileSync(BUILD_LOCK, 'utf8'));
    if (Date.now() - fs.statSync(BUILD_LOCK).mtimeMs > BUILD_LOCK_STALE_MS) return true;
    if (!pid) return false; // being written right now
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return err.code === 'ESRCH' || err.code === 'ENOENT';
  }
}

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Runs `portalwright user create` on a data directory (before or while the server runs).
 * @param {string} dataDir
 * @param {{username: string, password: string, firstName?: string, lastName?: string, email?: string, admin?: boolean}} user
 */
export async function createUser(dataDir, user) {
  const bin = await serverBinary();
  const args = ['user', 'create', '--data-dir', dataDir, '--username', user.username, '--password', user.password];
  if (user.firstName) args.push('--first-name', user.firstName);
  if (user.lastName) args.push('--last-name', user.lastName);
  if (user.email) args.push('--email', user.email);
  if (user.admin) args.push('--admin');
  try {
    await execFileP(bin, args, { env: serverEnv() });
  } catch (err) {
    throw new Error(`portalwright ${args.join(' ')} failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
}

function serverEnv(extra = {}) {
  // The server's settings in the developer's shell (PORTALWRIGHT_DATABASE_URL, …) must not
  // leak into the server under test: it gets only the ones given here.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PORTALWRIGHT_')));
  // E2E_WEB_DIR: serve a web build from this folder instead of the binary's embedded one
  // (try a web change without rebuilding the binary).
  if (process.env.E2E_WEB_DIR) env.PORTALWRIGHT_WEB_DIR = process.env.E2E_WEB_DIR;
  return { ...env, ...extra };
}

/**
 * Starts `portalwright serve` on a free port with a fresh data directory and waits for /readyz.
 * @param {{adminPassword?: string, users?: object[], env?: Record<string,string>, args?: string[]}} [opts]
 *   users: created with `portalwright user create` once the server is ready (a user created
 *   before the first start would stop the server from creating 'admin': it does so only on an
 *   empty database).
 */
export async function startServer(opts = {}) {
  const bin = await serverBinary();
  const adminPassword = opts.adminPassword ?? ADMIN_PASSWORD;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portalwright-e2e-data-'));
  liveDataDirs.add(dataDir);
  try {
    let server, lastErr;
    for (let attempt = 0; attempt < 5 && !server; attempt++) {
      const port = await freePort();
      try {
        server = await launch({ bin, port, dataDir, adminPassword, opts });
      } catch (err) {
        lastErr = err;
        if (!err.addrInUse) break; // only a port race is worth another try
      }
    }
    if (!server) throw lastErr;
    try {
      // After the first start, not before: the server creates 'admin' only on an empty database.
      for (const u of opts.users ?? []) await server.createUser(u);
    } catch (err) {
      await server.stop();
      throw err;
    }
    return server;
  } catch (err) {
    removeDataDir(dataDir);
    throw err;
  }
}

function removeDataDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  liveDataDirs.delete(dir);
}

async function launch({ bin, port, dataDir, adminPassword, opts }) {
  const addr = `127.0.0.1:${port}`;
  const baseURL = `http://${addr}`;
  const output = [];
  const text = () => output.join('');
  const run = () => spawnReady({ bin, addr, baseURL, dataDir, adminPassword, opts, output, text });
  let proc = await run();

  let stopped = false;
  const server = {
    baseURL,
    port,
    dataDir,
    adminUsername: ADMIN_USERNAME,
    adminPassword,
    /** Everything the server printed so far (stdout and stderr interleaved). */
    output: text,
    /** The URL of a path on this server, e.g. url('/#/404'). */
    url: (p = '/') => baseURL + (p.startsWith('/') ? p : '/' + p),
    /** fetch() against this server. */
    fetch: (p, init) => fetch(server.url(p), init),
    /** Signs in through the API; returns the login response body. */
    async apiLogin(username = ADMIN_USERNAME, password = adminPassword) {
      const res = await server.fetch('/api/v1/user/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      if (res.status !== 200) throw new Error(`login ${username}: HTTP ${res.status} ${await res.text()}`);
      return res.json();
    },
    createUser: (user) => createUser(dataDir, user),
    /** SIGTERM, SIGKILL after 5 s, then removes the data directory. Safe to call twice. */
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await stopChild(proc.child, proc.exited);
      } finally {
        removeDataDir(dataDir);
      }
    },
    /**
     * Stops the server with `signal` (SIGTERM: a normal stop, as a service manager does), waits
     * until it has exited, and starts it again on the same port and data directory (the pages'
     * baseURL stays valid). Returns how the first one exited: {code, signal}.
     */
    async restart({ signal = 'SIGTERM' } = {}) {
      if (stopped) throw new Error('restart of a stopped server');
      const exit = await stopChild(proc.child, proc.exited, signal);
      output.push(`--- e2e: the server exited (${JSON.stringify(exit)}) after ${signal}; starting it again\n`);
      proc = await run();
      return exit;
    },
  };
  return server;
}

/** Spawns `portalwright serve` on addr and waits for /readyz; returns {child, exited}. */
async function spawnReady({ bin, addr, baseURL, dataDir, adminPassword, opts, output, text }) {
  const child = spawn(bin, ['serve', '--addr', addr, '--data-dir', dataDir, ...(opts.args ?? [])], {
    // The tests' git servers (git daemon) listen on 127.0.0.1, which the server refuses to
    // fetch from unless private git hosts are allowed; a test may pass 'false' to check that.
    env: serverEnv({
      PORTALWRIGHT_ADMIN_PASSWORD: adminPassword,
      PORTALWRIGHT_ALLOW_PRIVATE_GIT_HOSTS: 'true',
      ...(opts.env ?? {}),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveServers.add(child);
  child.once('exit', () => liveServers.delete(child));
  child.stdout.setEncoding('utf8').on('data', (d) => output.push(d));
  child.stderr.setEncoding('utf8').on('data', (d) => output.push(d));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let exitInfo = null;
  exited.then((info) => { exitInfo = info; });
  let spawnError = null;
  child.once('error', (err) => { spawnError = err; });

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (spawnError) throw new Error(`cannot run ${bin}: ${spawnError.message}`);
    if (exitInfo) {
      const err = new Error(`portalwright serve exited early (${JSON.stringify(exitInfo)}). Output:\n${text()}`);
      err.addrInUse = /address already in use|EADDRINUSE/i.test(text());
      throw err;
    }
    if (await isReady(baseURL)) break;
    if (Date.now() > deadline) {
      await stopChild(child, exited);
      throw new Error(`portalwright serve was not ready at ${baseURL}/readyz within ${READY_TIMEOUT_MS} ms. Output:\n${text()}`);
    }
    await sleep(POLL_MS);
  }
  return { child, exited };
}

async function isReady(baseURL) {
  try {
    const res = await fetch(baseURL + '/readyz', { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function stopChild(child, exited, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}
