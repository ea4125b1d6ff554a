import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useSelectionStore } from '../../core/selectionStore';
import { ToastStack } from '../../ui/ToastStack';
import { useToastStore } from '../../core/toastService';
import { bodyOf, errorResponse, jsonResponse, mockFetch } from '../../test/helpers';
import { FakeRealtime, progress, renderApp, setUp, tearDown } from '../realtime/testing';
import { PREVIEW_MESSAGES as MSG } from './messages';
import { PreviewsCard } from './PreviewsCard';
import { LIVE_LINK, PNG_1X1, samplePreview } from './testing';

const info = {
  type: 'PASSENGER' as const,
  status: 'active',
  category: 'Passenger Portals',
  activeBranch: 'master',
  lastModified: '2026-03-05T09:07:00Z',
  languages: ['en_GB'],
  defaultLanguage: 'en_GB',
  languageMode: 'SINGLE_LANGUAGE',
  scope: 'FULL' as const,
  engineType: 'PORTAL_ENGINE' as const,
  supportLevel: 'FULL' as const,
};

function open(permissions = ['portal_read'], status = 'active') {
  useSelectionStore.setState({
    domain: { id: 1, name: 'Demo Airline' },
    portal: { id: 2, name: 'Passenger Portal', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
    portalInfo: { ...info, status },
    branch: 'feature/summer',
    language: 'en_GB',
    page: { id: 'home', title: 'Home' },
    permissions,
    permissionsDomainId: '1',
  });
}

let fake: FakeRealtime;
beforeEach(() => {
  fake = setUp();
  fake.open();
});
afterEach(tearDown);

const render = () =>
  renderApp(
    <>
      <PreviewsCard d={1} p={2} />
      <ToastStack />
    </>,
  );
const card = () => screen.getByRole('region', { name: MSG.cardTitle });
const entry = (name: 'Latest live preview' | 'Latest locked preview') => screen.getByRole('listitem', { name });

describe('PreviewsCard', () => {
  it('is hidden without portal_read', () => {
    mockFetch({});
    open([]);
    render();
    expect(screen.queryByRole('region', { name: MSG.cardTitle })).toBeNull();
  });

  it("shows the caller's latest live and locked previews with Details and Open", async () => {
    const fetch = mockFetch({
      'GET api/v1/preview/1/2/latest': ({ url }) =>
        jsonResponse(new URL(url, 'http://x').searchParams.get('type') === 'PORTAL_LIVE' ? samplePreview() : null),
      'GET api/v1/preview/qrCode/5': () => jsonResponse({ id: 5, link: LIVE_LINK, qrCode: PNG_1X1 }),
    });
    open();
    render();
    const open_ = await within(card()).findByRole('link', { name: MSG.open });
    expect(open_).toHaveAttribute('href', LIVE_LINK);
    expect(open_).toHaveAttribute('target', '_blank');
    expect(open_).toHaveAttribute('rel', 'noopener noreferrer');
    expect(entry('Latest live preview')).toHaveAttribute('data-status', 'READY');
    await waitFor(() => expect(within(entry('Latest locked preview')).getByText(MSG.none)).toBeInTheDocument());
    await userEvent.click(within(entry('Latest live preview')).getByRole('button', { name: MSG.details }));
    const dialog = screen.getByRole('dialog', { name: 'Preview' });
    expect(within(dialog).getByRole('link', { name: 'Preview link' })).toHaveAttribute('href', LIVE_LINK);
    expect(await within(dialog).findByRole('img', { name: MSG.qrAlt })).toBeInTheDocument();
    expect(fetch.mock.calls.filter(([u]) => String(u).includes('/latest'))).toHaveLength(2);
  });

  it('Revoke deletes the link once and reads the latest again', async () => {
    let revoked = false;
    const fetch = mockFetch({
      'GET api/v1/preview/1/2/latest': ({ url }) =>
        jsonResponse(
          new URL(url, 'http://x').searchParams.get('type') === 'PORTAL_LIVE' && !revoked ? samplePreview() : null,
        ),
      'DELETE api/v1/preview/1/2/5': () => {
        revoked = true;
        return new Response(null, { status: 204 });
      },
    });
    open();
    render();
    const revoke = await within(entry('Latest live preview')).findByRole('button', { name: MSG.revoke });
    await userEvent.dblClick(revoke);
    await waitFor(() => expect(within(entry('Latest live preview')).getByText(MSG.none)).toBeInTheDocument());
    expect(fetch.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'DELETE')).toHaveLength(
      1,
    );
  });

  it('Live preview posts the selection, is disabled meanwhile, and shows the preview in progress', async () => {
    let answer: (r: Response) => void = () => {};
    const fetch = mockFetch({
      'GET api/v1/preview/1/2/latest': () => jsonResponse(null),
      'POST api/v1/preview/1/2': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    open();
    render();
    await waitFor(() => expect(within(entry('Latest live preview')).getByText(MSG.none)).toBeInTheDocument());
    await userEvent.click(within(card()).getByRole('button', { name: 'Live preview' }));
    expect(within(card()).getByRole('button', { name: 'Live preview' })).toBeDisabled();
    expect(within(card()).getByRole('button', { name: 'Locked preview' })).toBeDisabled();
    expect(bodyOf(fetch, 'POST api/v1/preview/1/2')).toEqual({
      type: 'PORTAL_LIVE',
      branch: 'feature/summer',
      language: 'en_GB',
      page: 'home',
    });
    await act(async () => answer(jsonResponse(samplePreview({ status: 'PROGRESS', link: '' }), 202)));
    await waitFor(() => expect(entry('Latest live preview')).toHaveAttribute('data-status', 'PROGRESS'));
    expect(within(entry('Latest live preview')).getByText(MSG.generating)).toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: 'Live preview' })).toBeEnabled();
  });

  it('reads the latest previews again when a CREATE_PREVIEW of this portal finishes', async () => {
    let ready = false;
    const fetch = mockFetch({
      'GET api/v1/preview/1/2/latest': ({ url }) =>
        jsonResponse(
          new URL(url, 'http://x').searchParams.get('type') === 'PORTAL_LIVE'
            ? ready
              ? samplePreview()
              : samplePreview({ status: 'PROGRESS', link: '' })
            : null,
        ),
    });
    open();
    render();
    await waitFor(() => expect(entry('Latest live preview')).toHaveAttribute('data-status', 'PROGRESS'));
    const before = fetch.mock.calls.length;
    ready = true;
    // Another portal's preview changes nothing.
    act(() =>
      fake.message(
        progress({
          id: 'CREATE_PREVIEW-9',
          messageType: 'CREATE_PREVIEW',
          status: 'SUCCESS',
          progress: 100,
          data: { domainId: 1, portalId: 4 },
        }),
      ),
    );
    expect(fetch.mock.calls.length).toBe(before);
    act(() =>
      fake.message(
        progress({
          id: 'CREATE_PREVIEW-5',
          messageType: 'CREATE_PREVIEW',
          status: 'SUCCESS',
          progress: 100,
          data: { domainId: 1, portalId: 2, preview: samplePreview() },
        }),
      ),
    );
    await waitFor(() => expect(entry('Latest live preview')).toHaveAttribute('data-status', 'READY'));
    expect(within(entry('Latest live preview')).getByRole('link', { name: MSG.open })).toBeInTheDocument();
  });

  it('an inactive portal cannot be previewed', async () => {
    mockFetch({ 'GET api/v1/preview/1/2/latest': () => jsonResponse(null) });
    open(['portal_read'], 'inactive');
    render();
    const live = within(card()).getByRole('button', { name: 'Live preview' });
    expect(live).toBeDisabled();
    expect(within(card()).getByRole('button', { name: 'Locked preview' })).toBeDisabled();
    expect(within(card()).getByText(MSG.inactive)).toBeInTheDocument();
    await userEvent.hover(live.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(MSG.inactive);
  });

  it("LIVE_PREVIEW_UNAVAILABLE shows the 'Can't open live preview' overlay", async () => {
    mockFetch({
      'GET api/v1/preview/1/2/latest': () => jsonResponse(null),
      'POST api/v1/preview/1/2': () =>
        errorResponse(409, {
          errorTitle: "Can't open live preview",
          errorMessage: 'Your workspace is on another branch.',
          errorCode: 'LIVE_PREVIEW_UNAVAILABLE',
        }),
    });
    open();
    render();
    await userEvent.click(within(card()).getByRole('button', { name: 'Live preview' }));
    const overlay = await screen.findByRole('dialog', { name: MSG.unavailableTitle });
    expect(overlay).toHaveTextContent('Your workspace is on another branch.');
    expect(overlay).toHaveTextContent('If the error persists, please contact the Domain Administrator.');
    expect(useToastStore.getState().toasts).toHaveLength(0);
    await userEvent.click(within(overlay).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: MSG.unavailableTitle })).toBeNull());
  });

  it('LIVE_PREVIEW_UNSTABLE goes to error/live-preview-unstable with the portal in the query', async () => {
    mockFetch({
      'GET api/v1/preview/1/2/latest': () => jsonResponse(null),
      'POST api/v1/preview/1/2': () =>
        errorResponse(409, { errorMessage: 'The tasks failed.', errorCode: 'LIVE_PREVIEW_UNSTABLE' }),
    });
    open();
    const { router } = render();
    await userEvent.click(within(card()).getByRole('button', { name: 'Live preview' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/error/live-preview-unstable'));
    const query = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(query)).toEqual({
      domain: '1',
      portal: '2',
      branch: 'feature/summer',
      language: 'en_GB',
    });
  });

  it("any other failure is the 'Failed to generate preview' toast", async () => {
    mockFetch({
      'GET api/v1/preview/1/2/latest': () => jsonResponse(null),
      'POST api/v1/preview/1/2': () =>
        errorResponse(409, {
          errorTitle: 'Conflict',
          errorMessage: 'An inactive portal cannot be previewed.',
          errorCode: 'PORTAL_INACTIVE',
        }),
    });
    open();
    render();
    await userEvent.click(within(card()).getByRole('button', { name: 'Locked preview' }));
    await waitFor(() => expect(useToastStore.getState().toasts).toHaveLength(1));
    expect(useToastStore.getState().toasts[0]).toMatchObject({
      type: 'DANGER',
      title: 'Failed to generate preview',
      message: 'An inactive portal cannot be previewed.',
    });
  });

  it('shows why a locked preview failed (its preparation stopped with the server) and Retry creates it again', async () => {
    const reason =
      'The preview stopped being prepared: the server preparing it stopped or lost contact. Retry to prepare it again.';
    const fetch = mockFetch({
      'GET api/v1/preview/1/2/latest': ({ url }) =>
        jsonResponse(
          new URL(url, 'http://x').searchParams.get('type') === 'PORTAL_LOCKED'
            ? samplePreview({
                id: 9,
                type: 'PORTAL_LOCKED',
                status: 'FAILED',
                link: '',
                error: { errorTitle: MSG.failed, errorMessage: reason },
              })
            : null,
        ),
      'POST api/v1/preview/1/2': () =>
        jsonResponse(samplePreview({ id: 10, type: 'PORTAL_LOCKED', status: 'PROGRESS', link: '' }), 202),
    });
    open();
    render();
    await waitFor(() => expect(entry('Latest locked preview')).toHaveAttribute('data-status', 'FAILED'));
    expect(within(entry('Latest locked preview')).getByText(reason)).toBeInTheDocument();
    await userEvent.click(within(entry('Latest locked preview')).getByRole('button', { name: MSG.retry }));
    await waitFor(() => expect(entry('Latest locked preview')).toHaveAttribute('data-status', 'PROGRESS'));
    expect(bodyOf(fetch, 'POST api/v1/preview/1/2')).toMatchObject({ type: 'PORTAL_LOCKED' });
  });
});
