// Git hosts for the tests: a bare repository made from files, served by a real `git daemon`
// on loopback (pushes allowed), for portals imported from a git URL.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from './expect.js';
import { freePort } from './server.js';

/** Runs git in cwd as a person outside the product would; answers its output. */
export const git = (cwd, ...args) =>
  execFileSync('git', args, {
    cwd,
    stdio: 'pipe',
    env: { ...process.env, GIT_AUTHOR_NAME: 'E2E', GIT_AUTHOR_EMAIL: 'e2e@example.test', GIT_COMMITTER_NAME: 'E2E', GIT_COMMITTER_EMAIL: 'e2e@example.test' },
  }).toString();

/**
 * A git host: files ({path: content}) committed on master into served/<name>, served by git
 * daemon. Answers {url, bare, dir, stop}; stop() ends the daemon and removes the folder.
 * prepare(work) may add what files cannot say (a symbolic link) before the commit.
 */
export async function gitHost(name, files, prepare = () => {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-e2e-git-'));
  const work = path.join(dir, 'work');
  const served = path.join(dir, 'served');
  fs.mkdirSync(served, { recursive: true });
  fs.mkdirSync(work);
  git(work, 'init', '-q', '-b', 'master');
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    fs.writeFileSync(path.join(work, file), content);
  }
  prepare(work);
  git(work, 'add', '.');
  git(work, 'commit', '-q', '-m', 'Seed');
  const bare = path.join(served, name);
  git(dir, 'clone', '-q', '--bare', work, bare);
  const port = await freePort();
  const daemon = spawn(
    'git',
    ['daemon', '--reuseaddr', '--export-all', '--enable=receive-pack', '--listen=127.0.0.1', `--port=${port}`, `--base-path=${served}`, served],
    // Its own process group (git daemon forks a child per connection); stop() ends it.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  let daemonErr = '';
  daemon.stderr.on('data', (d) => { daemonErr += d; });
  const url = `git://127.0.0.1:${port}/${name}`;
  await eventually(
    () => {
      assert.equal(daemon.exitCode, null, `git daemon exited: ${daemonErr}`);
      execFileSync('git', ['ls-remote', url], { stdio: 'pipe' });
      return true;
    },
    { timeout: 15_000, message: `git daemon serves ${url}` },
  );
  return {
    url,
    bare,
    dir,
    stop: async () => {
      await stopGroup(daemon);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Ends a process started with detached: true and everything it started (its process group),
 * and waits until it has exited.
 */
export async function stopGroup(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const signal = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      // the group is gone already
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
  signal('SIGKILL'); // children that outlived the group leader
}
