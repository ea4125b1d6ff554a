/** The readiness of the packaged commit in the wizard and Manage Loadables, and approving over the gate (issue 29). */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Loadable } from '../../api/loadables';
import type { Finding } from '../../api/readiness';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { clearToasts, useToastStore } from '../../core/toastService';
import { bodyOf, errorResponse, jsonResponse, mockFetch } from '../../test/helpers';
import { adminUser, renderRoute, renderScreen, signIn } from '../../test/render';
import { FakeRealtime } from '../realtime/testing';
import { setRealtimeClient } from '../realtime/realtimeStore';
import CreateLoadableScreen from './CreateLoadableScreen';
import ManageLoadablesScreen from './ManageLoadablesScreen';
import { LOADABLE_MESSAGES as MSG } from './messages';
import { B, openPortal, PATTERN, PORTAL_PATH, sampleLoadable } from './testing';

const R = 'api/v1/readiness/1/2';
const COMMIT = sampleLoadable().commitId;

beforeEach(() => setRealtimeClient(new FakeRealtime()));
afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
  clearToasts();
});

const errorFinding = (id: string, message: string, line: number): Finding => ({
  id,
  rule: 'link.page-missing',
  severity: 'error',
  path: 'pages/home.html',
  line,
  message,
});

const commitReport = (commitId: string) => ({
  source: 'commit',
  branch: 'master',
  commitId,
  findings: [
    errorFinding('a', 'Link to a missing page', 4),
    errorFinding('b', 'Another missing page', 9),
    { ...errorFinding('c', 'Image without alt', 2), severity: 'warning', rule: 'page.img-alt' },
  ],
  ignored: [],
  summary: { errors: 2, warnings: 1, infos: 0, ignored: 0, files: 1, byRule: {} },
  checkedAt: '2026-11-23T10:00:00Z',
  durationMs: 5,
});

const row = async (name: string) => (await screen.findByRole('rowheader', { name })).closest('tr') as HTMLElement;

describe('Manage Loadables and the readiness gate', () => {
  function routes(list: Loadable[], approve: (body: unknown) => Response) {
    return mockFetch({
      [`GET ${B}`]: () => jsonResponse(list),
      [`POST ${B}/approve/5`]: ({ init }) => approve(init.body ? JSON.parse(String(init.body)) : undefined),
      [`GET ${R}/commit/${COMMIT}`]: () => jsonResponse(commitReport(COMMIT)),
      [`GET ${R}/settings`]: () => jsonResponse({ gate: true, lengthBudgets: [], sizeBudgetBytes: 0, version: '1' }),
    });
  }

  it("shows a generated loadable's commit readiness", async () => {
    openPortal();
    routes([sampleLoadable()], () => jsonResponse({}));
    renderScreen(ManageLoadablesScreen, `${PATTERN}/loadables-manage`, `${PORTAL_PATH}/loadables-manage`);
    const r = await row(sampleLoadable().name);
    expect(await within(r).findByText('2 errors, 1 warning')).toBeInTheDocument();
  });

  it('asks for a reason when the gate refuses, then approves over the errors', async () => {
    openPortal();
    const refused = errorResponse(409, {
      errorTitle: 'Readiness errors',
      errorMessage: 'The commit has 2 readiness errors.',
      errorCode: 'READINESS_ERRORS',
    });
    const fetch = routes([sampleLoadable()], (body) =>
      body
        ? jsonResponse(sampleLoadable({ status: 'APPROVED', approvalOverride: { reason: 'Hotfix', errors: 2 } }))
        : refused.clone(),
    );
    renderScreen(ManageLoadablesScreen, `${PATTERN}/loadables-manage`, `${PORTAL_PATH}/loadables-manage`);
    const user = userEvent.setup();
    await user.click(within(await row(sampleLoadable().name)).getByRole('button', { name: 'Approve' }));

    const dialog = await screen.findByRole('dialog', { name: MSG.overrideTitle });
    // No danger toast: the dialog says it.
    expect(useToastStore.getState().toasts.filter((t) => t.type === 'DANGER')).toEqual([]);
    expect(await within(dialog).findByText('Link to a missing page')).toBeInTheDocument();
    expect(within(dialog).getByText(/The gate is on/)).toBeInTheDocument();

    const submit = within(dialog).getByRole('button', { name: MSG.overrideSubmit });
    expect(submit).toBeDisabled();
    const reason = within(dialog).getByRole('textbox', { name: /Reason/ });
    await user.click(reason);
    await user.paste('x'.repeat(1001));
    expect(await within(dialog).findByText(MSG.overrideReasonTooLong)).toBeInTheDocument();
    expect(submit).toBeDisabled();
    await user.clear(reason);
    await user.type(reason, 'Hotfix for the A320 fleet');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    await waitFor(() => expect(bodyOf(fetch, `POST ${B}/approve/5`)).toBeUndefined());
    await waitFor(() =>
      expect(
        fetch.mock.calls
          .filter(([url, init]) => String(url).endsWith('/approve/5') && init?.body)
          .map(([, init]) => JSON.parse(String(init!.body))),
      ).toEqual([{ overrideReason: 'Hotfix for the A320 fleet' }]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(useToastStore.getState().toasts.map((t) => t.message)).toContain(MSG.approved);
  });

  it('shows an approval over the gate with its reason', async () => {
    openPortal();
    routes(
      [
        sampleLoadable({
          status: 'APPROVED',
          approvedBy: { id: 1, userName: 'admin' },
          approvalOverride: { reason: 'Hotfix', errors: 2 },
        }),
      ],
      () => jsonResponse({}),
    );
    renderScreen(ManageLoadablesScreen, `${PATTERN}/loadables-manage`, `${PORTAL_PATH}/loadables-manage`);
    const r = await row(sampleLoadable().name);
    expect(within(r).getByText('Approved over 2 readiness errors: Hotfix')).toBeInTheDocument();
  });

  it('toasts other refusals as before', async () => {
    openPortal();
    routes([sampleLoadable()], () => errorResponse(409, { errorTitle: 'Not generated', errorMessage: 'Too late' }));
    renderScreen(ManageLoadablesScreen, `${PATTERN}/loadables-manage`, `${PORTAL_PATH}/loadables-manage`);
    const user = userEvent.setup();
    await user.click(within(await row(sampleLoadable().name)).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(useToastStore.getState().toasts.map((t) => t.message)).toContain('Too late'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('Create Loadable wizard', () => {
  it('shows the readiness of the validated commit', async () => {
    openPortal();
    mockFetch({
      'GET api/v1/portal_branch/allReferences/1/2': () =>
        jsonResponse({ allReferences: ['master'], allTags: [], currentRef: 'master' }),
      [`GET ${B}/gitvalidation`]: () =>
        jsonResponse({ valid: true, branch: 'master', commitId: 'abcdef0123456789', ruleWarnings: [], message: 'OK' }),
      [`GET ${R}/commit/abcdef0123456789`]: () => jsonResponse(commitReport('abcdef0123456789')),
      [`GET ${R}/settings`]: () => jsonResponse({ gate: false, lengthBudgets: [], sizeBudgetBytes: 0, version: '1' }),
    });
    signIn(adminUser);
    renderRoute(
      [{ path: `${PATTERN}/loadables-create`, element: <CreateLoadableScreen /> }],
      `${PORTAL_PATH}/loadables-create`,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: MSG.validate }));
    const panel = await screen.findByRole('region', { name: 'Readiness of commit abcdef0123' });
    expect(await within(panel).findByText('Link to a missing page')).toBeInTheDocument();
    expect(within(panel).queryByText(/The gate is on/)).not.toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Open the Readiness screen' })).toHaveAttribute(
      'href',
      `${PORTAL_PATH}/readiness`,
    );
  });
});
