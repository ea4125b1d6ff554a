// Git over SSH (issue 15 item 2): the admin pushes a commit to the Crew Portal with the real git
// client through the built-in SSH server (a key made by PUT user/createkey, the URL from the
// portal settings' gitUrls); an author who has the portal open in the browser gets the reload
// toast at once and, after Reload Now, has the pushed file in their workspace.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { useE2E, apiSession, grantGroup, signIn, expectVisible, expectHidden, eventually } from '../harness/index.js';

const WRITER = { username: 'bob', password: 'bob-pass-1', firstName: 'Bob', lastName: 'Writer', email: 'bob@example.test' };
const DASHBOARD = '/#/domain/1/portal/1/branch/master/en_GB/dashboard';
const RELOAD_TEXT = 'Another user committed changes to the portal, please reload your workspace now to prevent conflicts';

function haveSSH() {
  try {
    execFileSync('ssh', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('git over SSH', { timeout: 180_000, skip: haveSSH() ? false : 'the ssh client is not installed (Debian: openssh-client)' }, () => {
  // Port 0: the server picks one; the clone URL the settings give names it.
  const e2e = useE2E({ server: { users: [WRITER], args: ['--ssh-addr', '127.0.0.1:0'] } });

  before(async () => {
    await grantGroup(await apiSession(e2e.server), 1, 'Writers', ['portal_read', 'portal_write', 'branch_read'], [WRITER.username]);
  });

  it('a push over SSH reaches an author in the browser live', async () => {
    const b = await e2e.newPage();
    const { profile } = await signIn(b, { username: WRITER.username, password: WRITER.password });
    await b.goto(DASHBOARD);
    await expectVisible(b.getByRole('heading', { name: 'Crew Portal', level: 1 }));

    const admin = await apiSession(e2e.server);
    const { privateKey } = await admin.ok('PUT', 'user/createkey');
    const urls = await admin.ok('GET', 'settings/1/1/gitUrls');
    const url = urls.find((u) => u.startsWith('ssh://'));
    assert.match(url ?? '', /^ssh:\/\/admin@127\.0\.0\.1:\d+\/1\/1\.git$/, `gitUrls ${JSON.stringify(urls)}`);

    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portalwright-e2e-ssh-'));
    try {
      const key = path.join(tmp, 'id_ed25519');
      fs.writeFileSync(key, privateKey, { mode: 0o600 });
      const env = {
        PATH: process.env.PATH,
        HOME: tmp,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'Admin',
        GIT_AUTHOR_EMAIL: 'admin@example.test',
        GIT_COMMITTER_NAME: 'Admin',
        GIT_COMMITTER_EMAIL: 'admin@example.test',
        GIT_SSH_COMMAND: `ssh -i ${key} -o IdentitiesOnly=yes -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR`,
      };
      const git = (cwd, ...args) => execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      git(tmp, 'clone', '-q', url, 'crew');
      const work = path.join(tmp, 'crew');
      fs.writeFileSync(path.join(work, 'pages', 'over-ssh.html'), '<p>Pushed over SSH</p>\n');
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '-m', 'A page pushed over SSH');
      git(work, 'push', '-q', 'origin', 'HEAD:master');
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }

    // The author is told at once, reloads, and has the pushed page.
    await expectVisible(b.getByText(RELOAD_TEXT), { timeout: 15_000 });
    await b.getByRole('button', { name: 'Reload Now' }).click();
    await expectHidden(b.getByText(RELOAD_TEXT));
    const pushed = path.join(e2e.server.dataDir, 'workspaces', String(profile.user.id), '1', 'pages', 'over-ssh.html');
    await eventually(async () => assert.ok(fs.existsSync(pushed), 'the pushed page is in the author\'s workspace'), { timeout: 15_000 });
  });
});
