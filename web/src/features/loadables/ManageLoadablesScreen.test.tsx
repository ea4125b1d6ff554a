import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Loadable } from '../../api/loadables';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { clearToasts, useToastStore } from '../../core/toastService';
import { bodyOf, called, errorResponse, jsonResponse, mockFetch, sampleUser } from '../../test/helpers';
import { renderScreen } from '../../test/render';
import { samplePreview } from '../preview/testing';
import { FakeRealtime, progress } from '../realtime/testing';
import { setRealtimeClient } from '../realtime/realtimeStore';
import ManageLoadablesScreen from './ManageLoadablesScreen';
import { LOADABLE_MESSAGES as MSG } from './messages';
import { B, openPortal, PATTERN, PORTAL_PATH, sampleLoadable } from './testing';

let fake: FakeRealtime;
beforeEach(() => {
  fake = new FakeRealtime();
  setRealtimeClient(fake);
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
  clearToasts();
});

const generated = sampleLoadable();
const approved = sampleLoadable({
  id: 6,
  name: 'approved-one',
  status: 'APPROVED',
  approvedBy: { id: 1, userName: 'admin' },
});
const failed = sampleLoadable({
  id: 7,
  name: 'failed-one',
  status: 'FAILED',
  fileName: '',
  error: {
    errorTitle: 'Build failed',
    errorMessage: 'The tasks failed.',
    errorCode: 'FAILED_TO_CREATE_LOADABLE_USING_MAKELOAD',
    output: 'npm ERR! missing script: build',
  },
});
const rejected = sampleLoadable({
  id: 8,
  name: 'rejected-one',
  status: 'REJECTED',
  rejectedBy: { id: 3, userName: 'grace' },
  rejectReason: 'Blurry images',
});

function routes(
  list: Loadable[] = [generated, approved, failed, rejected],
  extra: Parameters<typeof mockFetch>[0] = {},
) {
  return mockFetch({
    [`GET ${B}`]: () => jsonResponse(list),
    [`POST ${B}/approve/5`]: () => jsonResponse({ ...generated, status: 'APPROVED' }),
    [`PUT ${B}/reject/5`]: () => jsonResponse({ ...generated, status: 'REJECTED' }),
    [`POST ${B}/generate/7`]: () => jsonResponse({ ...failed, status: 'GENERATING' }, 202),
    [`POST ${B}/preview`]: () =>
      jsonResponse(samplePreview({ type: 'LOADABLE', versionTag: '1.0.1', emulator: 'tablet' }), 202),
    [`GET ${B}/unity/profiles/6`]: () =>
      jsonResponse([
        { name: 'unity-prod', system: 'unity', kind: 'http', description: 'Unity production' },
        { name: 'cms', system: 'scmdb', kind: 'directory', description: '' },
      ]),
    [`POST ${B}/scmdb/6`]: () =>
      jsonResponse({ id: 9, loadableId: 6, target: 'cms', system: 'scmdb', status: 'QUEUED', attempts: 0 }, 202),
    [`GET ${B}/handover/6`]: () =>
      jsonResponse([
        {
          id: 9,
          loadableId: 6,
          target: 'cms',
          system: 'scmdb',
          status: 'FAILED',
          attempts: 3,
          lastError: 'connection refused',
          lastAttemptAt: '2026-11-23T10:00:00Z',
          deliveredAt: null,
          createdAt: '2026-11-23T09:00:00Z',
        },
      ]),
    [`POST ${B}/handover/6/retry/9`]: () =>
      jsonResponse({ id: 9, loadableId: 6, target: 'cms', system: 'scmdb', status: 'QUEUED', attempts: 3 }),
    'GET api/v1/preview/1/2/1': () => jsonResponse(samplePreview({ type: 'LOADABLE' })),
    'GET api/v1/preview/qrCode/1': () => jsonResponse({ id: 1, link: 'x', qrCode: '' }),
    ...extra,
  });
}

function render(user?: typeof sampleUser) {
  const utils = renderScreen(
    ManageLoadablesScreen,
    `${PATTERN}/loadables-manage`,
    `${PORTAL_PATH}/loadables-manage`,
    user,
  );
  return { ...utils, user: userEvent.setup() };
}

const row = async (name: string) => (await screen.findByRole('rowheader', { name })).closest('tr') as HTMLElement;
const toastTitles = () => useToastStore.getState().toasts.map((t) => t.title ?? t.message);

describe('Manage Loadables', () => {
  it('lists the loadables with the actions their status allows', async () => {
    openPortal();
    routes();
    render();
    expect(await screen.findByRole('heading', { level: 1, name: MSG.manageTitle })).toBeInTheDocument();
    const g = await row(generated.name);
    expect(within(g).getByText('Generated')).toBeInTheDocument();
    expect(within(g).getByText('01234567')).toBeInTheDocument();
    for (const name of ['Approve', 'Reject', 'Download', 'Preview'])
      expect(within(g).getByRole('button', { name })).toBeInTheDocument();
    expect(within(g).queryByRole('button', { name: 'Hand over' })).not.toBeInTheDocument();

    const a = await row(approved.name);
    expect(within(a).getByText('Approved by admin')).toBeInTheDocument();
    for (const name of ['Reject', 'Download', 'Preview', 'Hand over', 'Hand-overs'])
      expect(within(a).getByRole('button', { name })).toBeInTheDocument();
    expect(within(a).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();

    const f = await row(failed.name);
    expect(within(f).getByText('Build failed')).toBeInTheDocument();
    expect(within(f).getByRole('button', { name: 'Generate again' })).toBeInTheDocument();
    expect(within(f).queryByRole('button', { name: 'Download' })).not.toBeInTheDocument();

    const r = await row(rejected.name);
    expect(within(r).getByText('Rejected by grace')).toBeInTheDocument();
    expect(within(r).getByText('Blurry images')).toBeInTheDocument();
    expect(within(r).queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
  });

  it('offers reading only without loadable:c and loadable:a', async () => {
    openPortal(['loadable:r']);
    routes();
    render({ ...sampleUser, admin: false });
    const g = await row(generated.name);
    expect(within(g).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(within(g).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    expect(within(await row(failed.name)).queryByRole('button', { name: 'Generate again' })).not.toBeInTheDocument();
    expect(within(await row(approved.name)).queryByRole('button', { name: 'Hand over' })).not.toBeInTheDocument();
  });

  it('approves, rejects with a reason, generates again and shows the build output', async () => {
    openPortal();
    const fetch = routes();
    const { user } = render();
    await user.click(within(await row(generated.name)).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(useToastStore.getState().toasts.map((t) => t.message)).toContain(MSG.approved));

    await user.click(within(await row(generated.name)).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: MSG.rejectTitle });
    await user.type(within(dialog).getByRole('textbox', { name: MSG.reason }), 'Wrong logo');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(bodyOf(fetch, `PUT ${B}/reject/5`)).toEqual({ reason: 'Wrong logo' }));

    await user.click(within(await row(failed.name)).getByRole('button', { name: 'Generate again' }));
    await waitFor(() => expect(called(fetch, `POST ${B}/generate/7`)).toBe(true));

    await user.click(within(await row(failed.name)).getByRole('button', { name: 'Build output' }));
    const output = await screen.findByRole('dialog', { name: MSG.outputTitle });
    expect(output).toHaveTextContent('npm ERR! missing script: build');
  });

  it('toasts "Could not download loadable" when the download fails', async () => {
    openPortal();
    routes(undefined, {
      [`GET ${B}/download/${generated.fileName}`]: () =>
        errorResponse(404, { errorTitle: 'Not Found', errorMessage: 'There is no such package.' }),
    });
    const { user } = render();
    await user.click(within(await row(generated.name)).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(toastTitles()).toContain(MSG.downloadFailed));
  });

  it('makes a preview with the chosen emulator and shows its details', async () => {
    openPortal();
    const fetch = routes();
    const { user } = render();
    await user.click(within(await row(generated.name)).getByRole('button', { name: 'Preview' }));
    const dialog = await screen.findByRole('dialog', { name: MSG.previewTitle });
    await user.click(within(dialog).getByRole('combobox', { name: MSG.emulator }));
    await user.click(await screen.findByRole('option', { name: 'Tablet' }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await screen.findByRole('dialog', { name: 'Preview' })).toBeInTheDocument();
    expect(bodyOf(fetch, `POST ${B}/preview`)).toEqual({ versionTag: '1.0.1', emulator: 'tablet' });
  });

  it('shows "Failed to generate loadable preview" when the preview is refused', async () => {
    openPortal();
    routes(undefined, {
      [`POST ${B}/preview`]: () => errorResponse(409, { errorTitle: 'Conflict', errorMessage: 'No package.' }),
    });
    const { user } = render();
    await user.click(within(await row(generated.name)).getByRole('button', { name: 'Preview' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: MSG.previewTitle })).getByRole('button', { name: 'Preview' }),
    );
    await waitFor(() => expect(toastTitles()).toContain(MSG.previewFailed));
  });

  it('hands an approved loadable over to the chosen target and retries a failed delivery', async () => {
    openPortal();
    const fetch = routes();
    const { user } = render();
    await user.click(within(await row(approved.name)).getByRole('button', { name: 'Hand over' }));
    const dialog = await screen.findByRole('dialog', { name: MSG.handOverTitle });
    await user.click(await within(dialog).findByRole('radio', { name: /cms \(scmdb\)/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Hand over' }));
    await waitFor(() => expect(bodyOf(fetch, `POST ${B}/scmdb/6`)).toEqual({ target: 'cms' }));

    await user.click(within(await row(approved.name)).getByRole('button', { name: 'Hand-overs' }));
    const deliveries = await screen.findByRole('table', { name: `${MSG.deliveries} of ${approved.name}` });
    expect(await within(deliveries).findByText('connection refused')).toBeInTheDocument();
    await user.click(within(deliveries).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(called(fetch, `POST ${B}/handover/6/retry/9`)).toBe(true));
  });

  it('reads the list again on a GENERATE_LOADABLE message of this portal only', async () => {
    openPortal();
    const fetch = routes();
    render();
    await row(generated.name);
    const lists = () =>
      fetch.mock.calls.filter(([url, init]) => String(url) === B && !(init as RequestInit)?.method?.match(/POST/))
        .length;
    const before = lists();
    act(() =>
      fake.message(
        progress({
          id: 'GENERATE_LOADABLE-5',
          status: 'SUCCESS',
          messageType: 'GENERATE_LOADABLE',
          data: { portalId: 99 },
        }),
      ),
    );
    act(() =>
      fake.message(
        progress({
          id: 'GENERATE_LOADABLE-5',
          status: 'SUCCESS',
          messageType: 'GENERATE_LOADABLE',
          data: { portalId: 2 },
        }),
      ),
    );
    await waitFor(() => expect(lists()).toBe(before + 1));
  });

  it('shows the notice for a portal that is not UNIVERSAL', async () => {
    openPortal([], 'PORTAL_ENGINE');
    routes();
    render();
    expect(await screen.findByText(MSG.notUniversal)).toBeInTheDocument();
  });
});
