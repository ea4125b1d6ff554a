import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import { jsonResponse, mockFetch } from '../../test/helpers';
import { itemTitle, FIRST_ROWS, ROWS_DELAY_MS } from './ArrayTemplate';
import { JsonEditor } from './JsonEditor';
import { fileResponse, renderEditor } from './testUtils';

const FILE = 'GET api/v1/assets/1/2/src/content/faq.json';
const SCHEMA = 'GET api/v1/assets/1/2/src/content/faq.json.schema';

const entry = {
  type: 'object',
  properties: { question: { type: 'string', title: 'Question' }, answer: { type: 'string' } },
};

function open(data: unknown, format?: string) {
  mockFetch({
    [FILE]: () => fileResponse(JSON.stringify(data), 'v1', 'application/json'),
    [SCHEMA]: () =>
      jsonResponse({
        type: 'object',
        properties: { entries: { type: 'array', title: 'Entries', format, items: entry } },
      }),
  });
  renderEditor(<JsonEditor domain={1} portal={2} path="/content/faq.json" onClose={vi.fn()} />);
}

describe('JSON editor arrays', () => {
  it("names a row by its first property's value, else 'New Entry'", () => {
    const schema = { type: 'array', items: entry } as RJSFSchema;
    expect(itemTitle(schema, { question: 'Where is my seat?', answer: 'x' })).toBe('Where is my seat?');
    expect(itemTitle(schema, { question: '', answer: 'x' })).toBe('New Entry');
    expect(itemTitle(schema, undefined)).toBe('New Entry');
  });

  it('shows tabs named by the rows (cut at 18 characters) for format tabs; a new row opens its tab', async () => {
    open({ entries: [{ question: 'Where is my seat on the plane?' }, { question: 'Wifi' }] }, 'tabs');
    const tabs = await screen.findByRole('tablist', { name: 'Entries entries' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Where is my seat o…', 'Wifi']);
    expect(screen.getByDisplayValue('Where is my seat on the plane?')).toBeInTheDocument();
    expect(screen.queryByDisplayValue('Wifi')).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(tabs).getByRole('tab', { name: 'Wifi' }));
    expect(await screen.findByDisplayValue('Wifi')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /add/i }));
    await waitFor(() => expect(within(tabs).getAllByRole('tab')).toHaveLength(3));
    expect(within(tabs).getAllByRole('tab')[2]).toHaveTextContent('New Entry');
    expect(within(tabs).getAllByRole('tab')[2]).toHaveAttribute('aria-selected', 'true');
  });

  it('builds rows beyond the first ten after a moment', async () => {
    const entries = Array.from({ length: 15 }, (_, i) => ({ question: `Question ${String(i + 1)}` }));
    // The moment is the editor's own timer, held by the test: on a busy machine the first
    // rows could be seen only after it had fired.
    const realSetTimeout = globalThis.setTimeout;
    let build: (() => void) | undefined;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
      if (ms !== ROWS_DELAY_MS) return realSetTimeout(fn, ms);
      build = fn;
      return 0;
    }) as unknown as typeof setTimeout);
    open({ entries });
    expect(await screen.findByDisplayValue('Question 1')).toBeInTheDocument();
    expect(screen.getByDisplayValue(`Question ${String(FIRST_ROWS)}`)).toBeInTheDocument();
    expect(screen.queryByDisplayValue('Question 15')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Building 5 more rows…');
    expect(build).toBeDefined();
    act(() => build?.());
    expect(await screen.findByDisplayValue('Question 15')).toBeInTheDocument();
  });
});
