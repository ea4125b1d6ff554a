import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSelectionStore, initialSelectionState } from '../../core/selectionStore';
import { bodyOf, jsonResponse, mockFetch } from '../../test/helpers';
import { renderRoute, renderWithProviders, signIn, adminUser } from '../../test/render';
import { patterns } from '../../core/paths';
import DesignerScreen from './DesignerScreen';
import { ALL_TYPES_INSTANCE, ALL_TYPES_PROBE, SITEMAP } from './fixtures';
import { FailureOverlay, MissingParametersScreen } from './Overlays';
import { PropertyPanel } from './PropertyPanel';

const D = '1';
const P = '2';
const ASSET = (path: string) => `GET api/v1/assets/${D}/${P}/src/${path}`;
const HERO = { type: 'hero', data: { title: 'Hello', align: 'start' } };
const HERO_PROBE = {
  name: 'Hero banner',
  properties: [
    { name: 'title', label: 'Title', editor: 'TextInput', default: '' },
    { name: 'align', label: 'Alignment', editor: 'DropDown', options: ['start', 'center'], default: 'start' },
  ],
};

/** The batch save of the hero, accepted. */
const HERO_SAVED = {
  [`POST api/v1/portal/${D}/${P}/batch`]: () =>
    jsonResponse([{ file: 'home-hero', path: 'widgets/database/home-hero.json', version: 'w2' }]),
};

function versioned(body: unknown, version: string) {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status: 200,
    headers: { 'Content-Type': 'text/plain', ETag: `"${version}"` },
  });
}

beforeEach(() => {
  signIn();
  // happy-dom reports every frame it does not load.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: D, name: 'Demo' },
    portal: { id: P, name: 'Crew', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' },
    branch: 'master',
    language: 'en_GB',
    portalInfo: {
      type: 'CREW',
      status: 'active',
      category: '',
      activeBranch: 'master',
      lastModified: '',
      languages: ['en_GB'],
      defaultLanguage: 'en_GB',
      languageMode: 'TRANSLATION',
      scope: 'FULL',
      engineType: 'PORTAL_ENGINE',
      supportLevel: 'FULL',
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function designerFetch(extra: Record<string, Parameters<typeof mockFetch>[0][string]> = {}) {
  return mockFetch({
    [`POST api/v1/workspace/${D}/${P}/token`]: () =>
      jsonResponse({ token: 'pwp1.t', expiresIn: 1800, base: `/api/v1/workspace/pwp1.t/${D}/${P}/` }),
    [ASSET('portal.json')]: () =>
      versioned(
        { taskRunnerSettings: { active: true, outputPath: 'out' }, languageSettings: { languageMode: 'TRANSLATION' } },
        'pj',
      ),
    [`GET api/v1/page/${D}/${P}/sitemap`]: () => jsonResponse(SITEMAP),
    [ASSET('widgets/database/home-hero.json')]: () => versioned(HERO, 'w1'),
    [ASSET('widgets/modules/hero/config.probe.json')]: () => versioned(HERO_PROBE, 'p1'),
    ...extra,
  });
}

const path = (page: string) => `/domain/${D}/portal/${P}/branch/master/en_GB/pages/${page}/designer-mode`;

function renderDesigner(page = 'home') {
  return renderRoute(
    [
      { path: patterns.portalPageDesigner, element: <DesignerScreen /> },
      { path: patterns.portalFileExplorer, element: <p>File explorer</p> },
    ],
    path(page),
  );
}

/** The preview frame, with a stand-in window (happy-dom does not load frames). */
async function frame(): Promise<HTMLIFrameElement> {
  const iframe = (await screen.findByTitle('Portal preview')) as HTMLIFrameElement;
  await act(async () => {}); // the new src's effects (its first load, the start time-out) have run
  if (!iframe.contentWindow)
    Object.defineProperty(iframe, 'contentWindow', { value: { postMessage: vi.fn() }, configurable: true });
  return iframe;
}

/** A message from the engine in the frame (opaque origin). */
function fromEngine(
  iframe: HTMLIFrameElement,
  type: string,
  payload: unknown,
  origin = 'null',
  source: unknown = iframe.contentWindow,
) {
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', { data: JSON.stringify({ type, payload }), origin, source: source as Window }),
    );
  });
}

function sentToEngine(iframe: HTMLIFrameElement) {
  return vi.spyOn(iframe.contentWindow as Window, 'postMessage');
}

describe('DesignerScreen', () => {
  it('loads the sandboxed frame at the workspace URL with the output path and the page', async () => {
    designerFetch();
    renderDesigner();
    const iframe = await frame();
    expect(iframe.getAttribute('sandbox')).toBe('allow-scripts allow-forms');
    expect(iframe.getAttribute('src')).toBe(
      `/api/v1/workspace/pwp1.t/${D}/${P}/out/index.html?designMode=1&parentOrigin=${encodeURIComponent(window.location.origin)}&lang=en_GB#/home`,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Please Wait');
  });

  it('on the frame origin: a single-use ticket per frame src, the frame keeps its origin, its messages are heard', async () => {
    let minted = 0;
    let languageMode = 'TRANSLATION';
    const FRAMES = 'http://frames.example:8081';
    const fetch = designerFetch({
      [`POST api/v1/workspace/${D}/${P}/token`]: () => {
        minted += 1;
        return jsonResponse({
          token: `pwf1.${minted}`,
          expiresIn: 1800,
          base: `${FRAMES}/api/v1/workspace/pwf1.${minted}/${D}/${P}/`,
        });
      },
      [ASSET('portal.json')]: () =>
        versioned(
          { taskRunnerSettings: { active: true, outputPath: 'out' }, languageSettings: { languageMode } },
          languageMode,
        ),
    });
    const { queryClient } = renderDesigner();
    let iframe = await frame();
    expect(iframe.getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-same-origin');
    expect(iframe.getAttribute('src')).toMatch(
      new RegExp(`^${FRAMES}/api/v1/workspace/pwf1\\.1/${D}/${P}/out/index\\.html\\?`),
    );
    fromEngine(iframe, 'engineEvent', { step: 'Loading Page', progress: 33, pageId: 'home' }, FRAMES);
    expect(screen.getByRole('status')).toHaveTextContent('Loading Page');
    fromEngine(iframe, 'engineEvent', { step: 'Evil', progress: 50 }, 'null');
    expect(screen.getByRole('status')).toHaveTextContent('Loading Page');

    // Another base (the language becomes a folder): a new ticket, never the used one again.
    languageMode = 'MULTILANGUAGE';
    await act(() => queryClient.invalidateQueries({ queryKey: ['portal', D, P] }));
    await waitFor(() => expect(screen.getByTitle('Portal preview').getAttribute('src')).toContain('/pwf1.2/'));
    iframe = await frame();
    expect(iframe.getAttribute('src')).toContain(`/pwf1.2/${D}/${P}/out/en_GB/index.html`);
    expect(fetch.mock.calls.filter(([url]) => String(url).endsWith(`workspace/${D}/${P}/token`))).toHaveLength(2);
  });

  it('shows the engine steps, outlines widgets, and edits a clicked widget live; save sends one batch', async () => {
    const fetch = designerFetch(HERO_SAVED);
    renderDesigner();
    const iframe = await frame();
    fromEngine(iframe, 'engineEvent', { step: 'Loading Page', progress: 33, pageId: 'home' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading Page');
    // Messages from elsewhere are ignored.
    fromEngine(iframe, 'engineEvent', { step: 'Evil', progress: 50 }, 'https://evil.example');
    fromEngine(iframe, 'engineEvent', { step: 'Evil', progress: 50 }, 'null', window);
    expect(screen.getByRole('status')).toHaveTextContent('Loading Page');

    fromEngine(iframe, 'engineEvent', { step: 'Preparing To Render', progress: 100, pageId: 'home' });
    fromEngine(iframe, 'registerShortCode', {
      id: 'home-hero',
      type: 'hero',
      query: 'Full Size',
      rect: { x: 10, y: 20, width: 300, height: 100 },
    });
    const outline = document.querySelector('[data-widget-outline="home-hero"]') as HTMLElement;
    expect(outline).not.toBeNull();
    expect(outline.style.border).toContain('dashed');

    const post = sentToEngine(iframe);
    fromEngine(iframe, 'shortCodeClicked', { id: 'home-hero', type: 'hero' });
    const title = await screen.findByRole('textbox', { name: 'Title' });
    expect(title).toHaveValue('Hello');
    fireEvent.change(title, { target: { value: 'Welcome' } });
    expect(post).toHaveBeenLastCalledWith(
      JSON.stringify({
        type: 'dataChanged',
        payload: { id: 'home-hero', data: { type: 'hero', data: { title: 'Welcome', align: 'start' } } },
      }),
      '*',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled());
    expect(bodyOf(fetch, `POST api/v1/portal/${D}/${P}/batch`)).toEqual([
      {
        file: 'home-hero',
        type: 'widget',
        data: { type: 'hero', data: { title: 'Welcome', align: 'start' } },
        version: 'w1',
      },
    ]);
  });

  it('keeps an item the batch refused, with its error', async () => {
    designerFetch({
      [`POST api/v1/portal/${D}/${P}/batch`]: () =>
        jsonResponse([
          {
            file: 'home-hero',
            error: { errorCode: 'FILE_CHANGED', errorMessage: 'The file changed since it was read', httpStatus: 409 },
          },
        ]),
    });
    renderDesigner();
    const iframe = await frame();
    fromEngine(iframe, 'engineEvent', { step: 'Preparing To Render', progress: 100 });
    fromEngine(iframe, 'shortCodeClicked', { id: 'home-hero', type: 'hero' });
    fireEvent.change(await screen.findByRole('textbox', { name: 'Title' }), { target: { value: 'X' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findAllByText(/The file changed since it was read/)).not.toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeEnabled();
  });

  it('a page change sends navigate (no reload) and prompts first when there are unsaved changes', async () => {
    designerFetch();
    const { router } = renderDesigner();
    const iframe = await frame();
    const src = iframe.getAttribute('src');
    fromEngine(iframe, 'engineEvent', { step: 'Preparing To Render', progress: 100 });
    fromEngine(iframe, 'shortCodeClicked', { id: 'home-hero', type: 'hero' });
    fireEvent.change(await screen.findByRole('textbox', { name: 'Title' }), { target: { value: 'X' } });
    const post = sentToEngine(iframe);

    await act(() => router.navigate(path('weather')));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Would you like to save your changes before navigating?');
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(path('weather')));
    // The discarded edit is read again from its file, then the frame navigates.
    expect(post).toHaveBeenCalledWith(JSON.stringify({ type: 'dataChanged', payload: { id: 'home-hero' } }), '*');
    expect(post).toHaveBeenCalledWith(
      JSON.stringify({ type: 'navigate', payload: { pageId: 'weather', params: {} } }),
      '*',
    );
    expect((await frame()).getAttribute('src')).toBe(src);
  });

  it('fills missing parameters and navigates the frame with them', async () => {
    designerFetch();
    renderDesigner('weather');
    const iframe = await frame();
    fromEngine(iframe, 'engineEvent', {
      error: {
        errorCode: 'MISSING_PARAMETERS',
        errorMessage: 'Required parameters are missing: airport',
        httpStatus: 0,
        data: {
          pageId: 'weather',
          title: 'Weather',
          missing: [{ name: 'airport', required: true }],
          parameters: [{ name: 'airport', required: true, value: '' }],
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Failed to open page: Weather' })).toBeInTheDocument();
    const post = sentToEngine(iframe);
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText('airport is required.')).toBeInTheDocument();
    expect(post).not.toHaveBeenCalled();
    await userEvent.type(screen.getByRole('textbox', { name: /airport/ }), 'CDG');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(post).toHaveBeenCalledWith(
      JSON.stringify({ type: 'navigate', payload: { pageId: 'weather', params: { airport: 'CDG' } } }),
      '*',
    );
  });

  it('shows the failure overlay; Retry sends refreshVersion', async () => {
    designerFetch();
    renderDesigner();
    const iframe = await frame();
    fromEngine(iframe, 'engineEvent', {
      error: { errorCode: 'UNKNOWN_ERROR', errorMessage: 'Page not found: home', httpStatus: 404 },
    });
    const overlay = await screen.findByRole('alertdialog', { name: 'Home' });
    expect(overlay).toHaveTextContent('404');
    expect(overlay).toHaveTextContent('Page not found: home');
    expect(overlay).toHaveTextContent('a missing HTML file');
    expect(within(overlay).queryByRole('button', { name: 'Reset' })).toBeNull();
    const post = sentToEngine(iframe);
    await userEvent.click(within(overlay).getByRole('button', { name: 'Retry' }));
    expect(post.mock.calls[0][0]).toMatch(/^\{"type":"refreshVersion","payload":\{"version":"\d+"\}\}$/);
  });

  it('a workspace refresh makes the frame read the files again (refreshVersion)', async () => {
    designerFetch();
    const { queryClient } = renderDesigner();
    const iframe = await frame();
    fromEngine(iframe, 'engineEvent', { step: 'Preparing To Render', progress: 100 });
    const post = sentToEngine(iframe);
    await waitFor(() => expect(queryClient.getQueryData(['portal', D, P, 'designer-frame-epoch'])).toBeDefined());
    await new Promise((r) => setTimeout(r, 5));
    await act(() => queryClient.invalidateQueries({ queryKey: ['portal', D, P] }));
    await waitFor(() =>
      expect(post.mock.calls.some(([m]) => String(m).startsWith('{"type":"refreshVersion"'))).toBe(true),
    );
  });

  it('times out on the host side when the engine never talks', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    designerFetch();
    renderDesigner();
    await frame();
    await act(async () => {
      vi.advanceTimersByTime(15000);
    });
    const overlay = await screen.findByRole('alertdialog');
    expect(overlay).toHaveTextContent('TIMED_OUT');
  });

  it('is refused for limited and universal portals', async () => {
    designerFetch();
    useSelectionStore.setState((s) => ({ portal: { ...s.portal!, supportLevel: 'LIMITED' } }));
    renderDesigner();
    expect(await screen.findByRole('alert')).toHaveTextContent('not available for limited portals');
    expect(screen.getByRole('link', { name: 'Open File Explorer' })).toBeInTheDocument();
    expect(screen.queryByTitle('Portal preview')).toBeNull();
  });

  it('needs page_read', async () => {
    designerFetch();
    signIn({ ...adminUser, admin: false });
    useSelectionStore.setState({ permissions: [] });
    renderDesigner();
    expect(await screen.findByText(/You do not have the right permission/)).toBeInTheDocument();
  });

  it("chooses a widget in the panel's Widget select (the keyboard's way) and saves with Ctrl+S", async () => {
    const fetch = designerFetch(HERO_SAVED);
    renderDesigner();
    const iframe = await frame();
    fromEngine(iframe, 'engineEvent', { step: 'Preparing To Render', progress: 100, pageId: 'home' });
    for (const [id, y] of [
      ['home-cards', 200],
      ['home-hero', 20],
    ] as const)
      fromEngine(iframe, 'registerShortCode', {
        id,
        type: 'hero',
        query: 'Full Size',
        rect: { x: 0, y, width: 9, height: 9 },
      });
    const user = userEvent.setup();
    const widget = await screen.findByRole('combobox', { name: /^Widget/ });
    widget.focus();
    await user.keyboard('{Enter}');
    // In page order: the hero (top) first.
    const options = within(await screen.findByRole('listbox', { name: 'Widget' })).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['home-hero (hero)', 'home-cards (hero)']);
    await user.keyboard('{Enter}');
    const title = await screen.findByRole('textbox', { name: 'Title' });
    expect(document.querySelector('[data-widget-outline="home-hero"]')).toHaveAttribute('data-selected', 'true');

    fireEvent.change(title, { target: { value: 'Welcome' } });
    await user.keyboard('{Control>}s{/Control}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled());
    expect(bodyOf(fetch, `POST api/v1/portal/${D}/${P}/batch`)).toEqual([
      {
        file: 'home-hero',
        type: 'widget',
        data: { type: 'hero', data: { title: 'Welcome', align: 'start' } },
        version: 'w1',
      },
    ]);
  });
});

describe('PropertyPanel', () => {
  it('builds a field for every property type', async () => {
    mockFetch({
      [ASSET('widgets/database/all.json')]: () => versioned(ALL_TYPES_INSTANCE, 'v1'),
      [ASSET('widgets/modules/everything/config.probe.json')]: () => versioned(ALL_TYPES_PROBE, 'p'),
      [`GET api/v1/page/${D}/${P}/sitemap`]: () => jsonResponse(SITEMAP),
    });
    const onChange = vi.fn();
    renderWithProviders(
      <PropertyPanel
        domain={D}
        portal={P}
        language="en_GB"
        widgetId="all"
        query="Full Size"
        dirty={{}}
        readOnly={false}
        onChange={onChange}
      />,
    );
    expect(await screen.findByRole('heading', { name: 'Everything' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Text' })).toHaveValue('Hello');
    expect(screen.getByRole('checkbox', { name: 'Flag' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Colour' })).toHaveValue('#ff0000');
    expect(screen.getByRole('combobox', { name: 'Choice' })).toHaveTextContent('Bee');
    expect(screen.getByRole('textbox', { name: 'Link' })).toHaveValue('https://example.com');
    expect(screen.getByRole('button', { name: 'Edit Link' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Key' })).toBeInTheDocument();
    expect(screen.getByText('Json')).toBeInTheDocument();
    expect(screen.getByText('Rich')).toBeInTheDocument();
    expect(screen.getByText('Asset')).toBeInTheDocument();
    expect(await screen.findByRole('combobox', { name: 'Target page' })).toBeInTheDocument();
    const items = screen.getByRole('group', { name: 'Items' });
    expect(within(items).getByRole('textbox', { name: 'Items 1 Label' })).toHaveValue('One');
    expect(within(items).getByRole('textbox', { name: 'Items 2 Label' })).toHaveValue('Two');

    fireEvent.change(screen.getByRole('textbox', { name: 'Text' }), { target: { value: 'Bye' } });
    expect(onChange).toHaveBeenLastCalledWith(
      'all',
      { ...ALL_TYPES_INSTANCE, data: { ...ALL_TYPES_INSTANCE.data, text: 'Bye' } },
      'v1',
    );
    await userEvent.click(screen.getByRole('checkbox', { name: 'Flag' }));
    expect(onChange.mock.lastCall?.[1].data.flag).toBe(false);

    await userEvent.click(within(items).getByRole('button', { name: 'Move Items 2 up' }));
    expect(onChange.mock.lastCall?.[1].data.items).toEqual([
      { label: 'Two', on: false },
      { label: 'One', on: true },
    ]);
    await userEvent.click(within(items).getByRole('button', { name: 'Remove Items 1' }));
    expect(onChange.mock.lastCall?.[1].data.items).toEqual([{ label: 'Two', on: false }]);
    await userEvent.click(within(items).getByRole('button', { name: 'Add Items' }));
    expect(onChange.mock.lastCall?.[1].data.items).toHaveLength(3);
    expect(onChange.mock.lastCall?.[1].data.items[2]).toEqual({ label: 'New', on: false });
  });

  it('is read-only without page:w', async () => {
    mockFetch({
      [ASSET('widgets/database/home-hero.json')]: () => versioned(HERO, 'w1'),
      [ASSET('widgets/modules/hero/config.probe.json')]: () => versioned(HERO_PROBE, 'p1'),
    });
    renderWithProviders(
      <PropertyPanel
        domain={D}
        portal={P}
        language="en_GB"
        widgetId="home-hero"
        query="Full Size"
        dirty={{}}
        readOnly
        onChange={vi.fn()}
      />,
    );
    expect(await screen.findByRole('textbox', { name: 'Title' })).toHaveAttribute('readonly');
    expect(screen.getByText(/page write permission needed/)).toBeInTheDocument();
  });

  it('refuses a widget id that is not a plain name', () => {
    renderWithProviders(
      <PropertyPanel
        domain={D}
        portal={P}
        language="en_GB"
        widgetId="../x"
        query="Full Size"
        dirty={{}}
        readOnly
        onChange={vi.fn()}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to overlay component');
  });
});

describe('overlays', () => {
  it('failure: Reset for the reset codes; no retry without an engine', async () => {
    const onRetry = vi.fn();
    const onReset = vi.fn();
    const { unmount } = renderWithProviders(
      <FailureOverlay
        error={{ errorCode: '113', errorMessage: 'Git broke', httpStatus: 500 }}
        pageTitle="Home"
        onRetry={onRetry}
        onReset={onReset}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(onReset).toHaveBeenCalled();
    unmount();
    renderWithProviders(
      <FailureOverlay
        error={{ errorCode: 'MISSING_ENGINE', errorMessage: 'No engine', httpStatus: 0 }}
        pageTitle="Home"
        onRetry={onRetry}
        onReset={onReset}
      />,
    );
    expect(screen.getByText('Unable to retry. Please contact administrator')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('missing parameters: one input per parameter', () => {
    renderWithProviders(
      <MissingParametersScreen
        pageTitle="Weather"
        missing={{
          pageId: 'weather',
          title: 'Weather',
          missing: ['a'],
          parameters: [
            { name: 'a', required: true },
            { name: 'b', value: 'x' },
          ],
        }}
        onSubmit={vi.fn()}
      />,
    );
    expect(screen.getByRole('textbox', { name: /^a/ })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'b' })).toHaveValue('x');
  });
});
