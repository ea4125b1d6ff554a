import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, mockFetch, queryOf, sampleUser } from '../../test/helpers';
import { renderRoute, signIn } from '../../test/render';
import { initialSelectionState, useSelectionStore, type SelectedPortal } from '../../core/selectionStore';
import { clearToasts, useToastStore } from '../../core/toastService';
import { HeaderSearch } from './HeaderSearch';
import type { SearchHit } from './searchApi';
import { cutLabel, hitTarget, SEARCH_MESSAGES } from './searchResults';

const crew: SelectedPortal = {
  id: 1,
  name: 'Crew Portal',
  supportLevel: 'FULL',
  engineType: 'PORTAL_ENGINE',
  scope: 'full',
};
const base = '/domain/1/portal/1/branch/feature:summer/fr_FR';
const LONG = 'Welcome aboard: the crew rest rules for long-haul flights and more';

const hits: SearchHit[] = [
  { type: 'page', pageId: 'home', title: 'Home', path: 'sitemap.json', snippet: 'Home', label: 'Home' },
  { type: 'page', pageId: 'rest', title: 'Rest', path: 'pages/rest.html', snippet: LONG, label: LONG, line: 3 },
  {
    type: 'widget',
    widgetId: 'hero-1',
    pageId: 'home',
    key: 'title',
    title: 'hero-1',
    path: 'widgets/database/hero-1.json',
    snippet: 'Crew hero',
    label: 'Crew hero',
  },
  {
    type: 'translation',
    key: 'home.title',
    language: 'fr_FR',
    title: 'home.title',
    path: 'translations/fr_FR.json',
    snippet: 'Bienvenue équipage',
    label: 'Bienvenue équipage',
  },
];

function select(portal: SelectedPortal = crew, permissions = ['page_read', 'translation_read']) {
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Demo Airline' },
    portal,
    branch: 'feature/summer',
    language: 'fr_FR',
    permissions,
    permissionsDomainId: '1',
  });
}

const render = () => renderRoute([{ path: '*', element: <HeaderSearch /> }], `${base}/dashboard`);
const box = () => screen.getByRole('combobox', { name: 'Search in portal' });
const type = (text: string) => fireEvent.change(box(), { target: { value: text } });

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  signIn();
  clearToasts();
  select();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('header search', () => {
  it('is 480 px wide on a wide screen (narrower below 1536 px) and says what to do while the box is empty', () => {
    mockFetch({});
    render();
    fireEvent.focus(box());
    expect(box()).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Please type something in the search box to search in the selected portal.',
    );
    expect(getComputedStyle(screen.getByTestId('header-search-box')).width).toBe('240px'); // happy-dom: 1024 px
    // The spec's 480 px from 1536 px on (the xl breakpoint).
    const rules = [...document.querySelectorAll('style')].map((s) => s.textContent ?? '').join('\n');
    expect(rules).toMatch(/@media \(min-width:\s*1536px\)\s*\{[^}]*width:\s*480px/);
  });

  it('searches 500 ms after the last key, once', async () => {
    const fetch = mockFetch({
      'GET api/v1/portal/1/1/search': () => jsonResponse({ phrase: 'crew', results: hits, truncated: false }),
    });
    render();
    fireEvent.focus(box());
    type('cr');
    act(() => void vi.advanceTimersByTime(300));
    type('crew');
    act(() => void vi.advanceTimersByTime(499));
    expect(fetch).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(queryOf(fetch, 'GET api/v1/portal/1/1/search').get('phrase')).toBe('crew');
    const options = await screen.findAllByRole('option');
    expect(options).toHaveLength(4);
    expect(screen.getByRole('listbox', { name: 'Search results' })).toBeInTheDocument();
  });

  it('cuts labels at 43 characters and keeps the full text in the tooltip', async () => {
    mockFetch({
      'GET api/v1/portal/1/1/search': () => jsonResponse({ phrase: 'crew', results: hits, truncated: false }),
    });
    render();
    type('crew');
    act(() => void vi.advanceTimersByTime(500));
    const option = (await screen.findAllByRole('option'))[1];
    expect(option).toHaveAttribute('title', LONG);
    const label = option.firstElementChild?.textContent ?? '';
    expect(Array.from(label)).toHaveLength(43);
    expect(label.endsWith('…')).toBe(true);
    expect(cutLabel('short')).toBe('short');
    expect(Array.from(cutLabel('x'.repeat(80)))).toHaveLength(43);
  });

  it("says 'No Items found' when nothing matches", async () => {
    mockFetch({
      'GET api/v1/portal/1/1/search': () => jsonResponse({ phrase: 'zzz', results: [], truncated: false }),
    });
    render();
    type('zzz');
    act(() => void vi.advanceTimersByTime(500));
    expect(await screen.findByText('No Items found')).toBeInTheDocument();
    expect(screen.queryAllByRole('option')).toHaveLength(0);
  });

  it("shows the 'Failed to search …' danger toast on an error", async () => {
    mockFetch({
      'GET api/v1/portal/1/1/search': () =>
        errorResponse(400, { errorCode: 'VALIDATION_ERROR', errorMessage: 'The search phrase must be one line' }),
    });
    render();
    type('crew');
    act(() => void vi.advanceTimersByTime(500));
    await waitFor(() =>
      expect(useToastStore.getState().toasts).toMatchObject([
        { type: 'DANGER', title: "Failed to search 'crew'", message: 'The search phrase must be one line' },
      ]),
    );
  });

  it('opens a page hit in designer mode (keyboard: ArrowDown, Enter)', async () => {
    mockFetch({
      'GET api/v1/portal/1/1/search': () => jsonResponse({ phrase: 'crew', results: hits, truncated: false }),
    });
    const { router } = render();
    type('crew');
    act(() => void vi.advanceTimersByTime(500));
    await screen.findAllByRole('option');
    fireEvent.keyDown(box(), { key: 'ArrowDown' });
    fireEvent.keyDown(box(), { key: 'ArrowDown' });
    expect(screen.getAllByRole('option')[1]).toHaveAttribute('aria-selected', 'true');
    expect(box()).toHaveAttribute('aria-activedescendant', screen.getAllByRole('option')[1].id);
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(router.state.location.pathname).toBe(`${base}/pages/rest/designer-mode`));
    expect(box()).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens a widget hit in the File Explorer at its folder (with the file open) by click', async () => {
    mockFetch({
      'GET api/v1/portal/1/1/search': () => jsonResponse({ phrase: 'crew', results: hits, truncated: false }),
    });
    const { router } = render();
    type('crew');
    act(() => void vi.advanceTimersByTime(500));
    fireEvent.click((await screen.findAllByRole('option'))[2]);
    await waitFor(() => expect(router.state.location.pathname).toBe(`${base}/file-explorer`));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('path')).toBe('/widgets/database');
    expect(params.get('edit')).toBe('/widgets/database/hero-1.json');
    expect(params.get('mode')).toBe('source');
  });

  it('opens a translation hit in the Translation Manager (the File Explorer without translation read)', () => {
    const ctx = { domainId: 1, portal: crew, branch: 'master', language: 'en_GB', canReadTranslations: true };
    expect(hitTarget(hits[3], ctx)).toBe('/domain/1/portal/1/branch/master/en_GB/translations');
    expect(hitTarget(hits[3], { ...ctx, canReadTranslations: false })).toBe(
      '/domain/1/portal/1/branch/master/en_GB/file-explorer?path=%2Ftranslations&edit=%2Ftranslations%2Ffr_FR.json&mode=source',
    );
    expect(hitTarget(hits[0], ctx)).toBe('/domain/1/portal/1/branch/master/en_GB/pages/home/designer-mode');
    // A widget opens the page showing it when the File Explorer is not offered.
    expect(hitTarget(hits[2], { ...ctx, canReadFiles: false })).toBe(
      '/domain/1/portal/1/branch/master/en_GB/pages/home/designer-mode',
    );
  });

  it('is hidden for limited and universal portals, without a portal and without page read', () => {
    mockFetch({});
    for (const portal of [
      { ...crew, supportLevel: 'LIMITED' as const },
      { ...crew, engineType: 'UNIVERSAL' as const },
    ]) {
      select(portal);
      const view = render();
      expect(screen.queryByRole('combobox', { name: 'Search in portal' })).toBeNull();
      view.unmount();
    }
    useSelectionStore.setState({ ...initialSelectionState, domain: { id: 1, name: 'Demo Airline' } });
    let view = render();
    expect(screen.queryByRole('combobox')).toBeNull();
    view.unmount();
    signIn(sampleUser);
    select(crew, []);
    view = render();
    expect(screen.queryByRole('combobox')).toBeNull();
    view.unmount();
    select(crew, ['page_read']);
    view = render();
    expect(box()).toBeInTheDocument();
    view.unmount();
    expect(SEARCH_MESSAGES.none).toBe('No Items found');
  });
});
