/** The editors' readiness findings (issue 29 item 2): at the form's fields, in Ace's gutter, and arrivals. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse, mockFetch, readinessAnswer } from '../../test/helpers';
import { JsonEditor } from './JsonEditor';
import { SourceEditor } from './SourceEditor';
import { fileResponse, renderEditor } from './testUtils';

vi.mock('./AceField', () => import('../../test/aceTextarea'));

const FILE = 'GET api/v1/assets/1/2/src/content/menu.json';
const SCHEMA = 'GET api/v1/assets/1/2/src/content/menu.json.schema';
const READINESS = 'GET api/v1/readiness/1/2';

const schema = {
  type: 'object',
  properties: {
    title: { type: 'string', title: 'Title' },
    items: {
      type: 'array',
      title: 'Items',
      items: {
        type: 'object',
        properties: { label: { type: 'string', title: 'Label' }, link: { type: 'string', title: 'Link' } },
      },
    },
  },
};
const menu = {
  title: 'Menu',
  items: [
    { label: 'Home', link: '#/home' },
    { label: 'Gone', link: '#/gone' },
  ],
};
const findings = [
  {
    rule: 'link.page-missing',
    path: 'content/menu.json',
    pointer: '/items/1/link',
    message: "Page 'gone' is not in the sitemap",
  },
  {
    rule: 'content.schema',
    path: 'content/menu.json',
    pointer: '/title',
    severity: 'warning',
    message: 'Title is long',
  },
  { rule: 'content.schema', path: 'content/menu.json', pointer: '', message: 'Missing property footer' },
  { rule: 'asset.missing', path: 'content/other.json', pointer: '/title', message: 'Not this file' },
];

function openJson(pointer?: string) {
  mockFetch({
    [FILE]: () => fileResponse(JSON.stringify(menu, null, 2), 'v1', 'application/json'),
    [SCHEMA]: () => jsonResponse(schema),
    [READINESS]: () => readinessAnswer(findings),
  });
  renderEditor(<JsonEditor domain={1} portal={2} path="/content/menu.json" onClose={vi.fn()} pointer={pointer} />);
}

describe('JSON editor readiness', () => {
  it("shows the file's findings under their fields and the others in a summary at the top", async () => {
    openJson();
    const link = await screen.findByDisplayValue('#/gone');
    await waitFor(() => expect(screen.getAllByTestId('field-findings')).toHaveLength(2));
    expect(link).toHaveAccessibleDescription(/Page 'gone' is not in the sitemap/);
    expect(screen.getByRole('textbox', { name: /Title/ })).toHaveAccessibleDescription(/Title is long/);
    const summary = screen.getByTestId('readiness-findings');
    expect(summary).toHaveTextContent('Readiness: 1 error');
    expect(summary).toHaveTextContent('Missing property footer');
    expect(summary).not.toHaveTextContent('Title is long');
    expect(screen.queryByText('Not this file')).not.toBeInTheDocument();
    // Findings do not block Save (authors work in steps): the form is valid.
    expect(screen.queryByRole('button', { name: /Show the first error/ })).not.toBeInTheDocument();
  });

  it('arrives at ?pointer=…: the field is in view and focused', async () => {
    openJson('/items/1/link');
    const link = await screen.findByDisplayValue('#/gone');
    await waitFor(() => expect(link).toHaveFocus());
  });
});

describe('Source editor readiness', () => {
  const CSS_FILE = 'GET api/v1/assets/1/2/src/css/site.css';
  const cssFindings = [
    { rule: 'asset.missing', path: 'css/site.css', line: 3, message: "'img/bg.png' does not exist" },
    { rule: 'whitelist.not-allowed', path: 'css/site.css', line: 5, severity: 'warning', message: 'Not allowed' },
  ];

  it('marks the lines in the gutter, lists the findings, and a line link goes to it', async () => {
    mockFetch({
      [CSS_FILE]: () => fileResponse('a {}\nb {}\nc { background: url(img/bg.png) }\n\nd {}', 'v1', 'text/css'),
      [READINESS]: () => readinessAnswer(cssFindings),
    });
    renderEditor(<SourceEditor domain={1} portal={2} path="/css/site.css" canWrite onClose={vi.fn()} />);
    const source = await screen.findByRole('textbox', { name: 'Source of /css/site.css' });
    await waitFor(() =>
      expect(source).toHaveAttribute('data-annotations', "3:error:'img/bg.png' does not exist|5:warning:Not allowed"),
    );
    const list = screen.getByTestId('readiness-findings');
    expect(list).toHaveTextContent('Readiness: 1 error, 1 warning');
    await userEvent.click(within(list).getByRole('button', { name: 'Line 5' }));
    expect(source).toHaveAttribute('data-goto-line', '5');
    expect(source).toHaveFocus();
  });

  it('goes to the line it is opened at (a JSON file without schema too)', async () => {
    mockFetch({
      [FILE]: () => fileResponse('{\n  "a": 1\n}\n', 'v1', 'application/json'),
      [SCHEMA]: () => errorResponse(404),
      [READINESS]: () => readinessAnswer([]),
    });
    renderEditor(<JsonEditor domain={1} portal={2} path="/content/menu.json" onClose={vi.fn()} line={2} />);
    const source = await screen.findByRole('textbox', { name: 'Source of /content/menu.json' });
    expect(source).toHaveAttribute('data-goto-line', '2');
    await waitFor(() => expect(source).toHaveFocus());
    expect(screen.queryByTestId('readiness-findings')).not.toBeInTheDocument();
  });

  it("goes to a pointer's finding line in a JSON file without schema (widget data)", async () => {
    mockFetch({
      'GET api/v1/assets/1/2/src/widgets/database/cards.json': () =>
        fileResponse('{\n  "type": "cards",\n  "data": {\n    "link": "#/gone"\n  }\n}\n', 'v1', 'application/json'),
      'GET api/v1/assets/1/2/src/widgets/database/cards.json.schema': () => errorResponse(404),
      [READINESS]: () =>
        readinessAnswer([
          {
            rule: 'link.page-missing',
            path: 'widgets/database/cards.json',
            pointer: '/data/link',
            line: 4,
            message: 'Gone',
          },
        ]),
    });
    renderEditor(
      <JsonEditor domain={1} portal={2} path="/widgets/database/cards.json" onClose={vi.fn()} pointer="/data/link" />,
    );
    const source = await screen.findByRole('textbox', { name: 'Source of /widgets/database/cards.json' });
    await waitFor(() => expect(source).toHaveAttribute('data-goto-line', '4'));
    await waitFor(() => expect(source).toHaveFocus());
    expect(source).toHaveAttribute('data-annotations', '4:error:Gone');
  });
});
