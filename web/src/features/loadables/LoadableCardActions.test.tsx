import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { clearToasts, useToastStore } from '../../core/toastService';
import { called, errorResponse, jsonResponse, mockFetch } from '../../test/helpers';
import { renderRoute, signIn } from '../../test/render';
import { LoadableCardActions, loadableCardData } from './LoadableCardActions';
import { LOADABLE_MESSAGES as MSG } from './messages';
import { B, openPortal, sampleLoadable } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
  clearToasts();
});

const generateCard = (status: 'PROGRESS' | 'SUCCESS' | 'ERROR', loadable = sampleLoadable()) => ({
  messageType: 'GENERATE_LOADABLE',
  status,
  data: {
    loadable,
    loadableId: loadable.id,
    domainId: 1,
    portalId: 2,
    domainName: 'Demo',
    portalName: 'Passenger Portal',
  },
});
const uploadCard = (status: 'PROGRESS' | 'ERROR') => ({
  messageType: 'UPLOAD_LOADABLE',
  status,
  data: {
    portalId: 2,
    portalName: 'P',
    domainId: 1,
    domainName: 'D',
    loadableId: 6,
    deliveryId: 9,
    target: 'unity-prod',
    progress: 0,
    details: '',
  },
});

function render(card: Parameters<typeof LoadableCardActions>[0]['card']) {
  signIn();
  const utils = renderRoute(
    [
      { path: '/', element: <LoadableCardActions card={card} /> },
      { path: '/domain/:d/portal/:p/branch/:b/:l/loadables-manage', element: <p>manage</p> },
    ],
    '/',
  );
  return { ...utils, user: userEvent.setup() };
}

const toasts = () => useToastStore.getState().toasts.map((t) => `${t.title ?? ''}|${t.message}`);

describe('loadable notification card actions', () => {
  it('reads the loadable facts of the two card types only', () => {
    expect(loadableCardData(generateCard('PROGRESS'))).toMatchObject({ domainId: '1', portalId: '2', loadableId: '5' });
    expect(loadableCardData(uploadCard('ERROR'))).toMatchObject({ loadableId: '6', deliveryId: '9', loadable: null });
    expect(loadableCardData({ messageType: 'CREATE_PREVIEW', data: { domainId: 1 } })).toBeNull();
    expect(loadableCardData({ messageType: 'GENERATE_LOADABLE', data: null })).toBeNull();
  });

  it('opens Manage Loadables on the open branch', async () => {
    openPortal();
    const { user, router } = render(generateCard('PROGRESS'));
    await user.click(screen.getByRole('button', { name: MSG.openManage }));
    expect(router.state.location.pathname).toBe('/domain/1/portal/2/branch/master/en_GB/loadables-manage');
    expect(screen.queryByRole('button', { name: MSG.retry })).not.toBeInTheDocument();
  });

  it('downloads a generated loadable; a failure is "Could not download loadable"', async () => {
    mockFetch({
      [`GET ${B}/download/${sampleLoadable().fileName}`]: () => errorResponse(404, { errorMessage: 'gone' }),
    });
    const { user } = render(generateCard('SUCCESS'));
    await user.click(screen.getByRole('button', { name: MSG.download }));
    await waitFor(() => expect(toasts()).toContain(`${MSG.downloadFailed}|gone`));
  });

  it('shows the build output and retries a failed generation', async () => {
    const fetch = mockFetch({
      [`POST ${B}/generate/7`]: () => jsonResponse(sampleLoadable({ id: 7, status: 'GENERATING' }), 202),
    });
    const failed = sampleLoadable({
      id: 7,
      status: 'FAILED',
      error: {
        errorTitle: 'Build failed',
        errorMessage: 'm',
        errorCode: 'FAILED_TO_CREATE_LOADABLE_USING_MAKELOAD',
        output: 'exit 2',
      },
    });
    const { user } = render(generateCard('ERROR', failed));
    await user.click(screen.getByRole('button', { name: MSG.buildOutput }));
    expect(await screen.findByRole('dialog', { name: MSG.outputTitle })).toHaveTextContent('exit 2');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.click(screen.getByRole('button', { name: MSG.retry }));
    await waitFor(() => expect(called(fetch, `POST ${B}/generate/7`)).toBe(true));
  });

  it('retries a failed hand-over with the spec message', async () => {
    const fetch = mockFetch({ [`POST ${B}/handover/6/retry/9`]: () => jsonResponse({ id: 9, status: 'QUEUED' }) });
    const { user } = render(uploadCard('ERROR'));
    await user.click(screen.getByRole('button', { name: MSG.retry }));
    await waitFor(() => expect(toasts()).toContain(`|${MSG.retryStarted}`));
    expect(called(fetch, `POST ${B}/handover/6/retry/9`)).toBe(true);
  });
});
