/** The designer's readiness findings (issue 29 item 2): at the widget's properties and the page's in the panel. */
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, readinessAnswer } from '../../test/helpers';
import { renderWithProviders, signIn } from '../../test/render';
import { DesignerAside } from './DesignerAside';
import { ALL_TYPES_INSTANCE, ALL_TYPES_PROBE, SITEMAP } from './fixtures';
import { propertyPointers } from './propertyFindings';
import { buildWidgetForm } from './properties';

afterEach(() => vi.unstubAllGlobals());

const ASSET = (path: string) => `GET api/v1/assets/1/2/src/${path}`;
const versioned = (body: unknown, version: string) =>
  new Response(JSON.stringify(body), { headers: { 'Content-Type': 'text/plain', ETag: `"${version}"` } });

const widgetFile = 'widgets/database/all.json';
const findings = [
  { rule: 'link.page-missing', path: widgetFile, pointer: '/data/link', message: "No page 'gone'" },
  {
    rule: 'translation.unknown-key',
    path: widgetFile,
    pointer: '/data/key',
    severity: 'warning',
    message: 'TXT_A is not defined',
  },
  { rule: 'asset.missing', path: widgetFile, pointer: '/data/items/1/label', message: 'Item two is wrong' },
  { rule: 'asset.missing', path: widgetFile, pointer: '/mediaQueries/tablet/text', message: 'Tablet text is wrong' },
  { rule: 'widget.missing', path: widgetFile, pointer: '/type', message: 'Unknown widget type' },
  { rule: 'page.img-alt', path: 'pages/home.html', line: 7, severity: 'warning', message: 'An image without alt' },
  { rule: 'asset.missing', path: 'pages/other.html', line: 2, message: 'Not this page' },
];

function open(query = 'Full Size') {
  signIn();
  mockFetch({
    [ASSET(widgetFile)]: () => versioned({ ...ALL_TYPES_INSTANCE, mediaQueries: { tablet: { text: 'Tablet' } } }, 'v1'),
    [ASSET('widgets/modules/everything/config.probe.json')]: () => versioned(ALL_TYPES_PROBE, 'p'),
    'GET api/v1/page/1/2/sitemap': () => jsonResponse(SITEMAP),
    'GET api/v1/readiness/1/2': () => readinessAnswer(findings),
  });
  renderWithProviders(
    <DesignerAside
      pageFile="pages/home.html"
      domain="1"
      portal="2"
      language="en_GB"
      widgetId="all"
      query={query}
      dirty={{}}
      readOnly={false}
      onChange={vi.fn()}
    />,
  );
}

/** The messages shown under the field whose control is `control`. */
const messagesUnder = (control: HTMLElement) =>
  within(control.closest('[data-pointer]') as HTMLElement).getByTestId('field-findings');

describe('Designer readiness', () => {
  it("shows the widget's findings at their properties, the others in the panel, and the page's below", async () => {
    open();
    const link = await screen.findByRole('textbox', { name: 'Link' });
    expect(await within(messagesUnder(link)).findByText("No page 'gone'")).toBeInTheDocument();
    expect(messagesUnder(screen.getByRole('combobox', { name: 'Key' }))).toHaveTextContent('TXT_A is not defined');
    const item = screen.getByRole('textbox', { name: 'Items 2 Label' });
    expect(messagesUnder(item)).toHaveTextContent('Item two is wrong');
    expect(within(screen.getByRole('group', { name: 'Items 1' })).queryByTestId('field-findings')).toBeNull();

    const [widget, page] = screen.getAllByTestId('readiness-findings');
    expect(widget).toHaveTextContent('Unknown widget type');
    // Another media query's finding is not at the Full Size field.
    expect(widget).toHaveTextContent('Tablet text is wrong');
    expect(page).toHaveTextContent('This page: 1 warning');
    expect(page).toHaveTextContent('Line 7: An image without alt');
    expect(screen.queryByText('Not this page', { exact: false })).not.toBeInTheDocument();
  });

  it("places the edited media query's findings at its properties", async () => {
    open('tablet');
    const text = await screen.findByRole('textbox', { name: 'Text' });
    expect(await within(messagesUnder(text)).findByText('Tablet text is wrong')).toBeInTheDocument();
  });

  it('lists the pointers of the properties, SubEditor items and their properties', () => {
    const form = buildWidgetForm(ALL_TYPES_PROBE);
    const pointers = propertyPointers(form.fields, ALL_TYPES_INSTANCE.data);
    expect(pointers).toContain('/data/link');
    expect(pointers).toContain('/data/items/1');
    expect(pointers).toContain('/data/items/1/on');
    expect(pointers).not.toContain('/data/items/2');
  });
});
