import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialSelectionState, useSelectionStore } from '../../../core/selectionStore';
import { ToastStack } from '../../../ui/ToastStack';
import { clearToasts } from '../../../core/toastService';
import { errorResponse, jsonResponse, mockFetch, sampleUser } from '../../../test/helpers';
import { renderWithProviders, signIn } from '../../../test/render';
import { fileAsset, folderAsset } from '../../assets/fixtures';
import { emptySitemap, sitemap } from '../fixtures';
import { LinkManagerDialog } from '../index';

const SITEMAP = 'GET api/v1/page/1/2/sitemap';
const MICROSITES = 'GET api/v1/microsite/1/2/microsite';

beforeEach(() => {
  clearToasts();
  signIn();
  useSelectionStore.setState({ branch: 'master' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSelectionStore.setState({ ...initialSelectionState });
});

function open(value = '', routes: Parameters<typeof mockFetch>[0] = {}) {
  mockFetch({ [SITEMAP]: () => jsonResponse(sitemap), ...routes });
  const onSave = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(
    <>
      <LinkManagerDialog open value={value} onSave={onSave} onClose={onClose} domainId={1} portalId={2} />
      <ToastStack />
    </>,
  );
  const dialog = screen.getByRole('dialog', { name: 'Link Manager' });
  return { onSave, onClose, dialog };
}

const save = () => screen.getByRole('button', { name: 'Save' });

async function choosePage(label: string, option: string) {
  await userEvent.click(await screen.findByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('LinkManagerDialog', () => {
  it('is 815 px wide, with the four types as tabs and Save and Close', () => {
    const { dialog } = open();
    expect(
      within(dialog)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Internal', 'External', 'Asset', 'MicroSite']);
    expect(screen.getByRole('tab', { name: 'Internal' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(save()).toBeDisabled();
    expect(dialog.closest('.MuiDialog-paper') ?? dialog).toHaveStyle({ width: '815px' });
  });

  it('preselects the detected type and fills the fields of an existing value', async () => {
    open('#/home?airport=EGLL&gate=4');
    expect(screen.getByRole('tab', { name: 'Internal' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('combobox', { name: 'Page' })).toHaveValue('Home');
    expect(screen.getByRole('textbox', { name: 'airport' })).toHaveValue('EGLL');
    expect(screen.getByRole('textbox', { name: 'gate' })).toHaveValue('4');
    expect(save()).toBeEnabled();
  });

  it('internal: Save needs a page and every required parameter', async () => {
    const { onSave, onClose } = open();
    await choosePage('Page', 'Home');
    const airport = screen.getByRole('textbox', { name: 'airport' });
    expect(airport).toBeRequired();
    expect(screen.getByText('The ICAO code')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'gate' })).not.toBeRequired();
    expect(save()).toBeDisabled();
    await userEvent.type(airport, 'X');
    await userEvent.clear(airport);
    expect(screen.getByText('airport is required.')).toBeInTheDocument();
    await userEvent.type(airport, 'EGLL');
    expect(save()).toBeEnabled();
    await userEvent.click(save());
    expect(onSave).toHaveBeenCalledWith('#/home?airport=EGLL');
    expect(onClose).toHaveBeenCalled();
  });

  it('internal: hidden pages are linkable and marked; a page without parameters saves at once', async () => {
    const { onSave } = open();
    await userEvent.click(await screen.findByRole('combobox', { name: 'Page' }));
    expect(screen.getByRole('option', { name: 'Secret hidden' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('option', { name: 'News' }));
    await userEvent.click(save());
    expect(onSave).toHaveBeenCalledWith('#/news');
  });

  it("internal: 'SiteMap seems to be empty' without pages", async () => {
    open('', { [SITEMAP]: () => jsonResponse(emptySitemap) });
    expect(await screen.findByText('SiteMap seems to be empty')).toBeInTheDocument();
    expect(save()).toBeDisabled();
  });

  it('external: the URL must be valid; without captcha a valid URL saves', async () => {
    const { onSave } = open();
    await userEvent.click(screen.getByRole('tab', { name: 'External' }));
    const url = screen.getByRole('textbox', { name: 'URL' });
    await userEvent.type(url, 'www.example.com');
    expect(
      screen.getByText('Please make sure the URL is valid and starts with http:// or https://'),
    ).toBeInTheDocument();
    expect(save()).toBeDisabled();
    await userEvent.clear(url);
    expect(screen.getByText('Please enter a URL')).toBeInTheDocument();
    await userEvent.type(url, 'https://example.com');
    expect(save()).toBeEnabled();
    await userEvent.click(save());
    expect(onSave).toHaveBeenCalledWith('https://example.com');
  });

  it('external with captcha: the page pickers show for a valid URL; Save needs both pages', async () => {
    const { onSave } = open('http://x');
    expect(screen.getByRole('tab', { name: 'External' })).toHaveAttribute('aria-selected', 'true');
    const url = screen.getByRole('textbox', { name: 'URL' });
    await userEvent.clear(url);
    await userEvent.type(url, 'bad');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Captcha' }));
    // The link has errors: no pickers.
    expect(screen.queryByRole('combobox', { name: 'Captcha page' })).not.toBeInTheDocument();
    await userEvent.clear(url);
    await userEvent.type(url, 'https://x.org/?a=1');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Captcha page' })).toBeInTheDocument());
    expect(save()).toBeDisabled();
    await choosePage('Captcha page', 'Captcha');
    expect(save()).toBeDisabled();
    await choosePage('Error page', 'Oops');
    expect(save()).toBeEnabled();
    await userEvent.click(save());
    expect(onSave).toHaveBeenCalledWith('#/captcha/captcha-page/oops/https%3A%2F%2Fx.org%2F%3Fa%3D1');
  });

  it('opens an existing captcha link on External with captcha on and both pages chosen', async () => {
    open('#/captcha/captcha-page/oops/https%3A%2F%2Fx.org');
    expect(screen.getByRole('tab', { name: 'External' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('textbox', { name: 'URL' })).toHaveValue('https://x.org');
    expect(screen.getByRole('checkbox', { name: 'Captcha' })).toBeChecked();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Captcha page' })).toHaveValue('Captcha'));
    expect(screen.getByRole('combobox', { name: 'Error page' })).toHaveValue('Oops');
    expect(save()).toBeEnabled();
  });

  it("microsite: 'No Microsites are currently configured.' when there are none", async () => {
    open('', { [MICROSITES]: () => jsonResponse([]) });
    await userEvent.click(screen.getByRole('tab', { name: 'MicroSite' }));
    expect(await screen.findByText('No Microsites are currently configured.')).toBeInTheDocument();
    expect(save()).toBeDisabled();
  });

  it('microsite: the chosen microsite saves as its link target', async () => {
    const { onSave } = open('', {
      [MICROSITES]: () =>
        jsonResponse([{ id: 5, name: 'Crew App', status: 'ACTIVE', target: 'microsites/crew-app/index.html' }]),
    });
    await userEvent.click(screen.getByRole('tab', { name: 'MicroSite' }));
    await userEvent.click(await screen.findByRole('radio', { name: 'Crew App' }));
    await userEvent.click(save());
    expect(onSave).toHaveBeenCalledWith('microsites/crew-app/index.html');
  });

  it("microsite: a failed load toasts 'Could not retrieve Microsites'", async () => {
    open('microsites/x/index.html', { [MICROSITES]: () => errorResponse(403) });
    expect(screen.getByRole('tab', { name: 'MicroSite' })).toHaveAttribute('aria-selected', 'true');
    expect((await screen.findAllByText('Could not retrieve Microsites')).length).toBeGreaterThan(0);
  });

  it('asset: chosen through the asset selection mode', async () => {
    const { onSave } = open('', {
      'GET api/v1/assets/1/2/src/': () =>
        jsonResponse(folderAsset('/', { children: [fileAsset('/docs.pdf', { type: 'application/pdf' })] })),
      'POST api/v1/thumbnail/1/2/token': () => jsonResponse({ token: 'tok', expiresIn: 600 }),
    });
    await userEvent.click(screen.getByRole('tab', { name: 'Asset' }));
    expect(save()).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Select Asset' }));
    const picker = await screen.findByRole('dialog', { name: 'Select Asset' });
    await userEvent.click(await within(picker).findByRole('checkbox', { name: 'Select docs.pdf' }));
    await userEvent.click(within(picker).getByRole('button', { name: 'Select Asset' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Asset' })).toHaveValue('docs.pdf'));
    await userEvent.click(save());
    expect(onSave).toHaveBeenCalledWith('docs.pdf');
  });

  it('without asset:w the dialog is read-only: no Save', async () => {
    signIn(sampleUser);
    useSelectionStore.setState({ permissions: ['asset:r'] });
    open('#/home');
    expect(await screen.findByRole('combobox', { name: 'Page' })).toHaveValue('Home');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Page' })).toBeDisabled();
  });

  it('with asset:w a non-admin may save', () => {
    signIn(sampleUser);
    useSelectionStore.setState({ permissions: ['ASSET_WRITE'] });
    open();
    expect(save()).toBeInTheDocument();
  });
});
