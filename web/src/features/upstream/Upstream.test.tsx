import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isSshUrl, upstreamKeys, type UpstreamStatus } from '../../api/upstream';
import { useSelectionStore } from '../../core/selectionStore';
import { ToastStack } from '../../ui/ToastStack';
import { clearToasts } from '../../core/toastService';
import { bodyOf, called, errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { renderWithProviders, signIn } from '../../test/render';
import { UPSTREAM_MESSAGES as MSG } from './messages';
import { UpstreamCard } from './UpstreamCard';
import { UpstreamSettings } from './UpstreamSettings';

const B = 'api/v1/upstream/1/2';

const status = (over: Partial<UpstreamStatus> = {}): UpstreamStatus => ({
  configured: true,
  url: 'https://git.example.org/crew/portal.git',
  state: 'IN_SYNC',
  ahead: 0,
  behind: 0,
  branches: [{ branch: 'master', ahead: 0, behind: 0, onUpstream: true, deletedOnHost: false }],
  lastSyncAt: '2026-11-20T10:00:00Z',
  error: '',
  errorAt: null,
  authKind: 'PASSWORD',
  hasCredentials: true,
  secretsConfigured: true,
  webhookUrl: 'https://pw.example.org/api/v1/upstream/webhook/2',
  ...over,
});

function as(permissions: string[]) {
  signIn(sampleUser); // not an admin: the permissions decide
  useSelectionStore.setState({ permissions, permissionsDomainId: '1' });
}

beforeEach(() => clearToasts());
afterEach(() => vi.unstubAllGlobals());

const region = () => screen.findByRole('region', { name: MSG.cardTitle });

describe('UpstreamCard (dashboard)', () => {
  it('shows the URL, the state, the reason and Sync now', async () => {
    as(['portal_read', 'portal_write']);
    const fetch = mockFetch({
      [`GET ${B}`]: () =>
        jsonResponse(
          status({
            state: 'AHEAD',
            ahead: 1,
            branches: [{ branch: 'master', ahead: 1, behind: 0, onUpstream: true, deletedOnHost: false }],
            error:
              'The commits on master are in the portal but did not reach the git host: the git host refused the push: frozen.',
          }),
        ),
      [`POST ${B}/sync`]: () => jsonResponse(status()),
    });
    renderWithProviders(
      <>
        <UpstreamCard d={1} p={2} />
        <ToastStack />
      </>,
    );
    const card = await region();
    expect(within(card).getByText('https://git.example.org/crew/portal.git')).toBeTruthy();
    expect(within(card).getAllByText('Ahead').length).toBeGreaterThan(0);
    expect(within(card).getByText(/did not reach the git host/)).toBeTruthy();
    expect(within(card).getByText(MSG.branchAhead('master', 1))).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: MSG.syncNow }));
    await waitFor(() => expect(called(fetch, `POST ${B}/sync`)).toBe(true));
    expect(await screen.findByText(MSG.synced)).toBeTruthy();
  });

  it("labels a branch the host deleted and the portal keeps 'deleted on the git host'", async () => {
    as(['portal_read']);
    mockFetch({
      [`GET ${B}`]: () =>
        jsonResponse(
          status({
            branches: [
              { branch: 'master', ahead: 0, behind: 0, onUpstream: true, deletedOnHost: false },
              { branch: 'summer', ahead: 0, behind: 0, onUpstream: false, deletedOnHost: true },
            ],
          }),
        ),
    });
    renderWithProviders(<UpstreamCard d={1} p={2} />);
    const card = await region();
    expect(within(card).getByText(MSG.branchDeletedOnHost('summer'))).toBeTruthy();
    expect(within(card).getByText(/summer: deleted on the git host/)).toBeTruthy();
  });

  it('offers no Sync now without portal_write, and nothing for a portal without upstream', async () => {
    as(['portal_read']);
    mockFetch({ [`GET ${B}`]: () => jsonResponse(status()) });
    const { unmount } = renderWithProviders(<UpstreamCard d={1} p={2} />);
    const card = await region();
    expect(within(card).queryByRole('button', { name: MSG.syncNow })).toBeNull();
    unmount();
    mockFetch({ [`GET ${B}`]: () => jsonResponse({ configured: false, branches: [] }) });
    renderWithProviders(<UpstreamCard d={1} p={2} />);
    await waitFor(() => expect(screen.queryByRole('region', { name: MSG.cardTitle })).toBeNull());
  });

  it('shows a failed Sync now with the server message', async () => {
    as(['portal_read', 'portal_write']);
    mockFetch({
      [`GET ${B}`]: () => jsonResponse(status({ state: 'ERROR', error: 'the git host could not be reached.' })),
      [`POST ${B}/sync`]: () =>
        errorResponse(502, { errorCode: 'UPSTREAM_UNREACHABLE', errorMessage: 'the git host could not be reached.' }),
    });
    renderWithProviders(
      <>
        <UpstreamCard d={1} p={2} />
        <ToastStack />
      </>,
    );
    const card = await region();
    await userEvent.click(within(card).getByRole('button', { name: MSG.syncNow }));
    expect(await screen.findByText(MSG.syncFailed)).toBeTruthy();
  });
});

describe('UpstreamSettings', () => {
  it('replaces the user name and password; never shows them', async () => {
    as(['portal_settings_read', 'portal_settings_write']);
    const fetch = mockFetch({
      [`GET ${B}`]: () => jsonResponse(status()),
      [`PUT ${B}/credentials`]: () => jsonResponse(status()),
    });
    renderWithProviders(
      <>
        <UpstreamSettings d={1} p={2} />
        <ToastStack />
      </>,
    );
    const section = await region();
    expect(within(section).getByText(MSG.passwordKind)).toBeTruthy();
    await userEvent.click(within(section).getByRole('button', { name: MSG.replaceCredentials }));
    const dialog = await screen.findByRole('form', { name: MSG.replaceCredentials });
    await userEvent.type(within(dialog).getByLabelText(MSG.userName), 'deploy-bot');
    await userEvent.type(within(dialog).getByLabelText(new RegExp(MSG.password)), 'tok-123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(bodyOf(fetch, `PUT ${B}/credentials`)).toEqual({
        kind: 'PASSWORD',
        userName: 'deploy-bot',
        password: 'tok-123',
      }),
    );
    expect(await screen.findByText(MSG.credentialsSaved)).toBeTruthy();
  });

  it('generates a deploy key for an ssh URL and shows its public half to copy', async () => {
    as(['portal_settings_read', 'portal_settings_write']);
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIO portalwright-portal-2';
    let current = status({ url: 'git@git.example.org:crew/portal.git', authKind: 'NONE', hasCredentials: false });
    const fetch = mockFetch({
      [`GET ${B}`]: () => jsonResponse(current),
      [`PUT ${B}/credentials`]: () => {
        current = { ...current, authKind: 'SSH_KEY', hasCredentials: true, publicKey: key };
        return jsonResponse(current);
      },
    });
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    renderWithProviders(
      <>
        <UpstreamSettings d={1} p={2} />
        <ToastStack />
      </>,
    );
    const section = await region();
    await userEvent.click(within(section).getByRole('button', { name: MSG.generateKey }));
    const confirm = await screen.findByRole('dialog');
    await userEvent.click(within(confirm).getByRole('button', { name: MSG.generateKey }));
    await waitFor(() => expect(bodyOf(fetch, `PUT ${B}/credentials`)).toEqual({ kind: 'SSH_KEY' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull()); // the confirmation closed
    const field = await within(section).findByDisplayValue(key);
    expect(field).toBeTruthy();
    await user.click(within(section).getByRole('button', { name: `${MSG.copy} ${MSG.publicKey}` }));
    expect(writeText).toHaveBeenCalledWith(key);
  });

  it('reveals the webhook URL and secret only on request, and replaces the secret', async () => {
    as(['portal_settings_read', 'portal_settings_write']);
    const hook = (secret: string) => ({
      url: 'https://pw.example.org/api/v1/upstream/webhook/2',
      secret,
      contentType: 'application/json',
      signatureHeader: 'X-Hub-Signature-256',
      tokenHeader: 'X-Gitlab-Token',
    });
    let secret = 'first-secret';
    const fetch = mockFetch({
      [`GET ${B}`]: () => jsonResponse(status()),
      [`GET ${B}/webhook`]: () => jsonResponse(hook(secret)),
      [`POST ${B}/webhook`]: () => {
        secret = 'second-secret';
        return jsonResponse(hook(secret));
      },
    });
    renderWithProviders(<UpstreamSettings d={1} p={2} />);
    const section = await region();
    expect(called(fetch, `GET ${B}/webhook`)).toBe(false);
    await userEvent.click(within(section).getByRole('button', { name: MSG.showWebhook }));
    expect(await within(section).findByDisplayValue('first-secret')).toBeTruthy();
    await userEvent.click(within(section).getByRole('button', { name: MSG.rotateWebhook }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: MSG.rotateWebhook }));
    expect(await within(section).findByDisplayValue('second-secret')).toBeTruthy();
  });

  it('without portal_settings_write: state only, no credentials form, no webhook', async () => {
    as(['portal_settings_read']);
    const fetch = mockFetch({ [`GET ${B}`]: () => jsonResponse(status()) });
    renderWithProviders(<UpstreamSettings d={1} p={2} />);
    const section = await region();
    expect(within(section).queryByRole('button', { name: MSG.replaceCredentials })).toBeNull();
    expect(within(section).queryByRole('button', { name: MSG.showWebhook })).toBeNull();
    expect(called(fetch, `GET ${B}/webhook`)).toBe(false);
  });

  it('says when the server cannot store credentials', async () => {
    as(['portal_settings_read', 'portal_settings_write']);
    mockFetch({
      [`GET ${B}`]: () => jsonResponse(status({ secretsConfigured: false, hasCredentials: false, authKind: 'NONE' })),
    });
    renderWithProviders(<UpstreamSettings d={1} p={2} />);
    const section = await region();
    expect(within(section).getByText(MSG.noSecretsKey)).toBeTruthy();
    expect(within(section).queryByRole('button', { name: MSG.replaceCredentials })).toBeNull();
  });
});

describe('upstream api', () => {
  it('keys live under the workspace prefix, and ssh URLs are told apart', () => {
    expect(upstreamKeys.status(1, 2)).toEqual(['portal', '1', '2', 'upstream']);
    expect(isSshUrl('git@github.com:org/repo.git')).toBe(true);
    expect(isSshUrl('ssh://git@host/repo.git')).toBe(true);
    expect(isSshUrl('https://host/repo.git')).toBe(false);
    expect(isSshUrl('git://host/repo.git')).toBe(false);
  });
});
