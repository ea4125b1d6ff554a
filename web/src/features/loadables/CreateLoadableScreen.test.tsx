import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { clearToasts, useToastStore } from '../../core/toastService';
import { bodyOf, called, errorResponse, jsonResponse, mockFetch, queryOf, sampleUser } from '../../test/helpers';
import { adminUser, renderRoute, signIn } from '../../test/render';
import CreateLoadableScreen from './CreateLoadableScreen';
import { LOADABLE_MESSAGES as MSG } from './messages';
import { B, openPortal, PATTERN, PORTAL_PATH, sampleLoadable } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
  clearToasts();
});

const VALID = {
  valid: true,
  branch: 'master',
  commitId: 'abcdef0123456789',
  ruleWarnings: [],
  message: 'master can be built.',
};

function routes(extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET api/v1/portal_branch/allReferences/1/2': () =>
      jsonResponse({ allReferences: ['master', 'develop'], allTags: ['v1'], currentRef: 'master' }),
    [`GET ${B}/gitvalidation`]: () => jsonResponse(VALID),
    [`GET ${B}/generateName`]: () => jsonResponse({ name: 'passenger-portal-portal-20261123' }),
    [`GET ${B}/unity/partNumber`]: () => jsonResponse({ partNumber: 'PW-POR-PASSENGE' }),
    [`GET ${B}/copyright`]: () =>
      jsonResponse({
        statement: 'All media are licensed.',
        assets: [{ path: 'images/a.png', size: 2048 }],
        metaData: { accept: false, ipAddress: '203.0.113.7' },
      }),
    [`POST ${B}`]: () => jsonResponse(sampleLoadable({ status: 'PENDING' }), 201),
    [`POST ${B}/generate/5`]: () => jsonResponse(sampleLoadable({ status: 'GENERATING' }), 202),
    ...extra,
  });
}

function render(user: typeof sampleUser = adminUser) {
  signIn(user);
  const utils = renderRoute(
    [
      { path: `${PATTERN}/loadables-create`, element: <CreateLoadableScreen /> },
      { path: `${PATTERN}/loadables-manage`, element: <p>manage</p> },
    ],
    `${PORTAL_PATH}/loadables-create`,
  );
  return { ...utils, user: userEvent.setup() };
}

const next = () => screen.getByRole('button', { name: 'Next' });

describe('Create Loadable wizard', () => {
  it('walks Source, Details, Copyright and Review, then creates and generates', async () => {
    openPortal();
    const fetch = routes();
    const { user, router } = render();
    expect(await screen.findByRole('heading', { level: 1, name: MSG.createTitle })).toBeInTheDocument();

    // Source: the reference must be validated first.
    const ref = screen.getByRole('combobox', { name: /Branch, tag or commit/ });
    expect(ref).toHaveValue('master');
    await user.click(next());
    expect(useToastStore.getState().toasts.map((t) => t.message)).toContain(MSG.validateFirst);
    await user.click(screen.getByRole('button', { name: MSG.validate }));
    expect(await screen.findByText(VALID.message)).toBeInTheDocument();
    expect(Object.fromEntries(queryOf(fetch, `GET ${B}/gitvalidation`))).toEqual({ type: 'PORTAL', branch: 'master' });
    await user.click(next());

    // Details: name suggested; the server's rules.
    const name = await screen.findByRole('textbox', { name: /Name/ });
    await waitFor(() => expect(name).toHaveValue('passenger-portal-portal-20261123'));
    await user.click(next());
    expect(await screen.findByText(MSG.partNumber)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: MSG.suggest }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Part number/ })).toHaveValue('PW-POR-PASSENGE'));
    expect(queryOf(fetch, `GET ${B}/unity/partNumber`).get('foldetName')).toBe('Passenger Portal');
    const version = screen.getByRole('textbox', { name: /Version/ });
    await user.clear(version);
    await user.type(version, '1.0.0');
    expect(await screen.findByText(MSG.versionPrefix)).toBeInTheDocument();
    await user.clear(version);
    await user.type(version, '2.1');
    await user.click(next());

    // Copyright: statement, media, the address as reported, I accept.
    expect(await screen.findByText('All media are licensed.')).toBeInTheDocument();
    expect(screen.getByText('images/a.png')).toBeInTheDocument();
    expect(screen.getByText(/203\.0\.113\.7/)).toBeInTheDocument();
    expect(queryOf(fetch, `GET ${B}/copyright`).get('checkRefs')).toBe('true');
    await user.click(next());
    expect(await screen.findByText(MSG.copyright)).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: MSG.accept }));
    await user.click(next());

    // Review, then create and generate.
    const review = await screen.findByRole('table', { name: 'Review' });
    expect(within(review).getByText('2.1.<build>')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: MSG.createAndGenerate }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${PORTAL_PATH}/loadables-manage`));
    expect(bodyOf(fetch, `POST ${B}`)).toEqual({
      name: 'passenger-portal-portal-20261123',
      partNumber: 'PW-POR-PASSENGE',
      versionPrefix: '2.1',
      type: 'PORTAL',
      gitRef: 'master',
      copyrightData: { statement: 'All media are licensed.', metaData: { accept: true, ipAddress: '203.0.113.7' } },
    });
    expect(called(fetch, `POST ${B}/generate/5`)).toBe(true);
  });

  it('shows an invalid reference and its warnings, and keeps Next closed', async () => {
    openPortal();
    routes({
      [`GET ${B}/gitvalidation`]: () =>
        jsonResponse({
          valid: false,
          branch: 'nope',
          commitId: '',
          ruleWarnings: ['You have uncommitted changes'],
          message: 'No such ref.',
        }),
    });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: MSG.validate }));
    expect(await screen.findByText('No such ref.')).toBeInTheDocument();
    expect(screen.getByText('You have uncommitted changes')).toBeInTheDocument();
    await user.click(next());
    expect(screen.getByRole('button', { name: MSG.validate })).toBeInTheDocument();
  });

  it('shows a refused create as the server says and stays', async () => {
    openPortal();
    const fetch = routes({
      [`POST ${B}`]: () =>
        errorResponse(409, {
          errorTitle: 'Conflict',
          errorMessage: 'A loadable with this name exists.',
          errorCode: 'LOADABLE_NAME_TAKEN',
        }),
    });
    const { user, router } = render();
    await user.click(await screen.findByRole('button', { name: MSG.validate }));
    await screen.findByText(VALID.message);
    await user.click(next());
    await user.click(await screen.findByRole('button', { name: MSG.suggest }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Part number/ })).toHaveValue('PW-POR-PASSENGE'));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Name/ })).not.toHaveValue(''));
    await user.click(next());
    await user.click(await screen.findByRole('checkbox', { name: MSG.accept }));
    await user.click(next());
    await user.click(await screen.findByRole('button', { name: MSG.createAndGenerate }));
    await waitFor(() => expect(useToastStore.getState().toasts.map((t) => t.title)).toContain(MSG.createFailed));
    expect(useToastStore.getState().toasts.map((t) => t.message)).toContain('A loadable with this name exists.');
    expect(called(fetch, `POST ${B}/generate/5`)).toBe(false);
    expect(router.state.location.pathname).toBe(`${PORTAL_PATH}/loadables-create`);
  });

  it('shows a notice for a portal that is not UNIVERSAL, and the permission notice without loadable:c', async () => {
    openPortal([], 'PORTAL_ENGINE');
    routes();
    const first = render();
    expect(await screen.findByText(MSG.notUniversal)).toBeInTheDocument();
    first.unmount();
    openPortal(['loadable:r']);
    render({ ...sampleUser, admin: false });
    expect(await screen.findByText(/You do not have the right permission/)).toBeInTheDocument();
  });
});
