import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { bodyOf, errorResponse, jsonResponse, mockFetch } from '../../test/helpers';
import { useWorkspaceEpoch } from '../../core/workspaceRefresh';
import { JsonEditor } from './JsonEditor';
import { fileResponse, nthCall, renderEditor, savedResponse } from './testUtils';

// happy-dom cannot run Ace: a textarea stands in for it (as in SourceEditor.test.tsx).
vi.mock('./AceField', () => import('../../test/aceTextarea'));

const FILE = 'GET api/v1/assets/1/2/src/content/menu.json';
const SCHEMA = 'GET api/v1/assets/1/2/src/content/menu.json.schema';
const SAVE = 'POST api/v1/assets/1/2/src/content/menu.json';
const MERGE = 'POST api/v1/workspace-merge/1/2';

const schema = {
  type: 'object',
  properties: {
    title: { type: 'string', title: 'Title', required: true, pattern: '^[A-Z]' },
    tags: { type: 'array', title: 'Tags', items: { type: 'string' } },
  },
};

function open(props: { pickAsset?: (kind: 'image' | 'document') => Promise<string | null> } = {}) {
  const onSaved = vi.fn();
  renderEditor(
    <JsonEditor domain={1} portal={2} path="/content/menu.json" onClose={vi.fn()} onSaved={onSaved} {...props} />,
  );
  return onSaved;
}

const routes = (text: string, extra: Record<string, () => Response> = {}, schemaBody: unknown = schema) => ({
  [FILE]: () => fileResponse(text, 'v1', 'application/json'),
  [SCHEMA]: () => jsonResponse(schemaBody),
  ...extra,
});

describe('JsonEditor', () => {
  it('opens a file without a schema in the source editor, which refuses text that is not JSON', async () => {
    const fetch = mockFetch({
      // The file's answer (?meta=1): the server says its saves are strict JSON.
      [FILE]: ({ url }) =>
        url.includes('meta=1')
          ? jsonResponse({ name: 'menu.json', path: '/content/menu.json', editorMode: 'json', strictJson: true })
          : fileResponse('{\n  "a": 1\n}\n', 'v1', 'application/json'),
      [SCHEMA]: () => errorResponse(404),
      [SAVE]: () => savedResponse('/content/menu.json', 'v2'),
    });
    open();
    const source = await screen.findByRole('textbox', { name: 'Source of /content/menu.json' });
    expect(screen.queryByText('No schema found.')).not.toBeInTheDocument();
    await userEvent.type(source, '}}');
    expect(await screen.findByRole('alert')).toHaveTextContent(/Wrong JSON Format: line \d+, column \d+/);
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(() => nthCall(fetch, SAVE, 0)).toThrow();
  });

  it('saves JSON with comments as text when the server says its saves are not strict (tsconfig.json, issue 30)', async () => {
    const text = '{\n  // the target\n  "a": 1,\n}\n';
    const fetch = mockFetch({
      [FILE]: ({ url }) =>
        url.includes('meta=1')
          ? jsonResponse({ name: 'menu.json', path: '/content/menu.json', editorMode: 'json' })
          : fileResponse(text, 'v1', 'application/json'),
      [SCHEMA]: () => errorResponse(404),
      [SAVE]: () => savedResponse('/content/menu.json', 'v2'),
    });
    open();
    const source = await screen.findByRole('textbox', { name: 'Source of /content/menu.json' });
    await waitFor(() => expect(source).toHaveAttribute('data-mode', 'json'));
    await userEvent.type(source, ' ');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(nthCall(fetch, SAVE, 0).body.data).toBe(`${text} `));
  });

  it("warns 'Wrong JSON Format' for a file that is not JSON", async () => {
    mockFetch(routes('{ not json'));
    open();
    expect(await screen.findByText('Wrong JSON Format')).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: /Title/ })).toHaveValue('');
  });

  it('shows the local-changes note and enables Save after an array edit', async () => {
    mockFetch(routes('{"title": "Menu", "tags": ["a", "b"]}'));
    open();
    expect(await screen.findByText(/Saved changes appear in your local changes/)).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await userEvent.click(screen.getAllByRole('button', { name: 'Move down' })[0]);
    expect(save).toBeEnabled();
  });

  it('adding an array row makes the form saveable', async () => {
    const links = {
      type: 'array',
      title: 'Links',
      items: { type: 'object', properties: { label: { type: 'string' } } },
    };
    mockFetch(routes('{"title": "Menu", "links": []}', {}, { ...schema, properties: { ...schema.properties, links } }));
    open();
    await screen.findByRole('textbox', { name: /Title/ });
    // The second array (Links): its new row is an empty object, which is valid.
    await userEvent.click(screen.getAllByRole('button', { name: 'Add Item' })[1]);
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('blocks Save on an invalid required field and shows the form warning', async () => {
    mockFetch(routes('{"title": "Menu"}'));
    open();
    const title = await screen.findByRole('textbox', { name: /Title/ });
    await userEvent.clear(title);
    expect(await screen.findByText(/Please note that there are validation errors on the form/)).toBeInTheDocument();
    expect(screen.getByText('This field is required')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.type(title, 'lower');
    expect(await screen.findByText('This value should match required pattern')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('saves with If-Match, keeping 4-space indentation and the trailing newline', async () => {
    const text = '{\n    "title": "Menu",\n    "tags": [\n        "a"\n    ]\n}\n';
    const fetch = mockFetch(routes(text, { [SAVE]: () => savedResponse('/content/menu.json', 'v2') }));
    const onSaved = open();
    const title = await screen.findByRole('textbox', { name: /Title/ });
    await userEvent.type(title, 's');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const call = nthCall(fetch, SAVE);
    expect(call.headers.get('If-Match')).toBe('"v1"');
    expect(call.body.data).toBe('{\n    "title": "Menus",\n    "tags": [\n        "a"\n    ]\n}\n');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
  });

  it('shows the file again after a workspace change; an edited form is told and offered Reload', async () => {
    let text = '{\n  "title": "Menu"\n}\n';
    let version = 'v1';
    mockFetch({
      [FILE]: () => fileResponse(text, version, 'application/json'),
      [SCHEMA]: () => jsonResponse(schema),
    });
    open();
    expect(await screen.findByRole('textbox', { name: /Title/ })).toHaveValue('Menu');
    text = '{\n  "title": "Reverted"\n}\n';
    version = 'v2';
    useWorkspaceEpoch.setState((s) => ({ epoch: s.epoch + 1 }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Title/ })).toHaveValue('Reverted'));
    await userEvent.type(screen.getByRole('textbox', { name: /Title/ }), '!');
    text = '{\n  "title": "Reset"\n}\n';
    version = 'v3';
    useWorkspaceEpoch.setState((s) => ({ epoch: s.epoch + 1 }));
    await userEvent.click(await screen.findByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Title/ })).toHaveValue('Reset'));
  });

  it('writes tab-indented files back with tabs', async () => {
    const fetch = mockFetch(
      routes('{\n\t"title": "Menu"\n}', { [SAVE]: () => savedResponse('/content/menu.json', 'v2') }),
    );
    const onSaved = open();
    await userEvent.type(await screen.findByRole('textbox', { name: /Title/ }), 's');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(nthCall(fetch, SAVE).body.data).toBe('{\n\t"title": "Menus"\n}');
  });

  it('shows the first content rule error of a refused save', async () => {
    mockFetch(
      routes('{"title": "Menu"}', {
        [SAVE]: () =>
          errorResponse(400, {
            errorCode: 'CONTENT_VALIDATION_FAILED',
            errorMessage: 'Content validation failed',
            data: { ruleErrors: [{ message: 'Title must be unique' }] },
          }),
      }),
    );
    open();
    await userEvent.type(await screen.findByRole('textbox', { name: /Title/ }), 's');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to save changes')).toBeInTheDocument();
    expect(screen.getByText('Title must be unique')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('offers the conflict choice on 409 FILE_CHANGED; discard shows the current file', async () => {
    let reads = 0;
    mockFetch({
      [FILE]: () => fileResponse(reads++ === 0 ? '{"title": "Menu"}' : '{"title": "Theirs"}', `v${reads}`),
      [SCHEMA]: () => jsonResponse(schema),
      [SAVE]: () => errorResponse(409, { errorCode: 'FILE_CHANGED' }),
    });
    open();
    const title = await screen.findByRole('textbox', { name: /Title/ });
    await userEvent.type(title, 's');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'The file changed' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reload and discard my edit' }));
    await waitFor(() => expect(title).toHaveValue('Theirs'));
  });

  it("merges a refused save with the current file and saves it: the other author's field and mine", async () => {
    let saves = 0;
    const fetch = mockFetch({
      [FILE]: () => fileResponse('{\n  "title": "Menu",\n  "tags": ["a"]\n}\n', 'v1', 'application/json'),
      [SCHEMA]: () => jsonResponse(schema),
      [SAVE]: () =>
        saves++ === 0 ? errorResponse(409, { errorCode: 'FILE_CHANGED' }) : savedResponse('/content/menu.json', 'v3'),
      [MERGE]: () =>
        jsonResponse({
          kind: 'json',
          merged: '{\n  "title": "Menus",\n  "tags": [\n    "a",\n    "b"\n  ]\n}\n',
          theirs: '{\n  "title": "Menu",\n  "tags": [\n    "a",\n    "b"\n  ]\n}\n',
          version: 'v2',
          conflicts: [],
          unresolved: 0,
        }),
    });
    const onSaved = open();
    const title = await screen.findByRole('textbox', { name: /Title/ });
    await userEvent.type(title, 's');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Merged with changes made meanwhile and saved.')).toBeInTheDocument();
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    // The merge got the text the edit started from and only the author's change.
    expect(bodyOf(fetch, MERGE)).toEqual({
      path: 'content/menu.json',
      base: '{\n  "title": "Menu",\n  "tags": ["a"]\n}\n',
      mine: '{\n  "title": "Menus",\n  "tags": [\n    "a"\n  ]\n}\n',
    });
    const retry = nthCall(fetch, SAVE, 1);
    expect(retry.headers.get('If-Match')).toBe('"v2"');
    expect(JSON.parse(retry.body.data)).toEqual({ title: 'Menus', tags: ['a', 'b'] });
    // The form shows the merge, saved.
    await waitFor(() => expect(screen.getAllByRole('textbox')).toHaveLength(3));
    expect(title).toHaveValue('Menus');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('lists only the overlapping field; Keep mine loads the merge into the form, unsaved', async () => {
    const theirs = '{"title": "Lunch", "tags": ["a", "b"]}';
    const fetch = mockFetch({
      [FILE]: () => fileResponse('{"title": "Menu", "tags": ["a"]}', 'v1', 'application/json'),
      [SCHEMA]: () => jsonResponse(schema),
      [SAVE]: () => errorResponse(409, { errorCode: 'FILE_CHANGED' }),
      [MERGE]: ({ init }) => {
        const body = JSON.parse(String(init.body)) as { choices?: Record<string, { take: string }> };
        if (body.choices?.['/title']?.take === 'mine')
          return jsonResponse({
            kind: 'json',
            merged: '{"title": "Menus", "tags": ["a", "b"]}',
            theirs,
            version: 'v2',
            conflicts: [],
            unresolved: 0,
          });
        return jsonResponse({
          kind: 'json',
          merged: null,
          theirs,
          version: 'v2',
          conflicts: [{ id: '/title', path: 'title', base: '"Menu"', mine: '"Menus"', theirs: '"Lunch"' }],
          unresolved: 1,
        });
      },
    });
    open();
    const title = await screen.findByRole('textbox', { name: /Title/ });
    await userEvent.type(title, 's');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'The file changed' });
    const list = within(dialog).getByRole('list', { name: 'Changes that overlap' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByRole('heading', { name: 'title' })).toBeInTheDocument();
    expect(within(list).getByText('Lunch')).toBeInTheDocument();
    expect(within(list).getByText('Menus')).toBeInTheDocument();
    const choice = within(list).getByRole('radiogroup', { name: 'title' });
    expect(within(choice).getByRole('radio', { name: 'Keep mine' })).not.toBeChecked();
    expect(within(choice).getByRole('radio', { name: 'Keep theirs' })).not.toBeChecked();
    const apply = within(dialog).getByRole('button', { name: 'Apply' });
    expect(apply).toBeDisabled();
    await userEvent.click(within(choice).getByRole('radio', { name: 'Keep mine' }));
    expect(apply).toBeEnabled();
    await userEvent.click(apply);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(nthCall(fetch, MERGE, 1).body).toMatchObject({ choices: { '/title': { take: 'mine' } } });
    // Loaded, not saved: the author checks it and saves (with the version the merge saw).
    expect(title).toHaveValue('Menus');
    expect(screen.getAllByRole('textbox')).toHaveLength(3);
    expect(() => nthCall(fetch, SAVE, 1)).toThrow();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('offers a Choose… button on image link fields when a picker is given', async () => {
    const pickAsset = vi.fn(async () => '/images/logo.png');
    mockFetch(
      routes(
        '{}',
        {},
        { type: 'object', properties: { logo: { type: 'string', title: 'Logo', links: [{ mediaType: 'image' }] } } },
      ),
    );
    open({ pickAsset });
    await userEvent.click(await screen.findByRole('button', { name: 'Choose… Logo' }));
    expect(pickAsset).toHaveBeenCalledWith('image');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Logo' })).toHaveValue('/images/logo.png'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });
});

describe('JsonEditor link fields', () => {
  const linkSchema = {
    type: 'object',
    properties: { website: { type: 'string', title: 'Website', links: [{ mediaType: 'link' }] } },
  };
  const sitemap = {
    id: 'master-page',
    title: 'Master Page',
    isMaster: true,
    children: [{ id: 'home', title: 'Home', parameters: [{ name: 'airport', required: true }] }],
  };

  it("opens the link manager from 'Edit link' and writes the saved link into the field", async () => {
    mockFetch(
      routes(
        '{"website": "#/home?airport=EGLL"}',
        { 'GET api/v1/page/1/2/sitemap': () => jsonResponse(sitemap) },
        linkSchema,
      ),
    );
    open();
    const field = await screen.findByRole('textbox', { name: 'Website' });
    expect(field).toHaveValue('#/home?airport=EGLL');
    await userEvent.click(screen.getByRole('button', { name: 'Edit link Website' }));
    const dialog = await screen.findByRole('dialog', { name: 'Link Manager' });
    // The existing internal link opens on Internal with its page and parameter.
    expect(within(dialog).getByRole('tab', { name: 'Internal' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'airport' })).toHaveValue('EGLL'));

    await userEvent.click(within(dialog).getByRole('tab', { name: 'External' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'URL' }), 'https://example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(field).toHaveValue('https://example.com');
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('keeps the link hint on a typed value that is not a URL or path', async () => {
    mockFetch(routes('{}', {}, linkSchema));
    open();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Website' }), 'not a link');
    expect(await screen.findByText('Enter a valid URL (https://…, /path or #anchor).')).toBeInTheDocument();
  });
});

describe('JsonEditor field widgets', () => {
  it('renders textarea and color formats, field-level required, and oneOf with $ref', async () => {
    mockFetch(
      routes(
        '{"body": "Hi", "colour": "#ff0000", "item": {"kind": "text", "text": "x"}}',
        {},
        {
          type: 'object',
          definitions: {
            text: { type: 'object', title: 'Text', properties: { kind: { const: 'text' }, text: { type: 'string' } } },
            image: {
              type: 'object',
              title: 'Image',
              properties: { kind: { const: 'image' }, src: { type: 'string' } },
            },
          },
          properties: {
            body: { type: 'string', title: 'Body', format: 'textarea', required: 'true' },
            colour: { type: 'string', title: 'Colour', format: 'color' },
            item: { title: 'Item', oneOf: [{ $ref: '#/definitions/text' }, { $ref: '#/definitions/image' }] },
          },
        },
      ),
    );
    open();
    const body = await screen.findByRole('textbox', { name: /Body/ });
    expect(body.tagName).toBe('TEXTAREA');
    expect(document.querySelector('input[type="color"]')).toHaveValue('#ff0000');
    expect(screen.getByRole('textbox', { name: /^text/i })).toHaveValue('x');
    await userEvent.clear(body);
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
  });
});
