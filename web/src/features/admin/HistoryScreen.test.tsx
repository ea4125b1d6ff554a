import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../../test/helpers';
import HistoryScreen from './HistoryScreen';
import { renderScreen } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

const signIn = {
  id: 1,
  at: '2026-03-05T14:07:00',
  category: 'SIGN_IN',
  historyType: 'LOGIN_SUCCEEDED',
  userId: 1,
  userName: 'admin',
  entity: 'USER',
  entityId: '1',
  details: '',
  clientAddr: '127.0.0.1',
};
const created = {
  ...signIn,
  id: 2,
  category: 'USER',
  historyType: 'USER_CREATED',
  entityId: '2',
  details: 'bob',
  clientAddr: '',
};

function serve() {
  return mockFetch({
    'GET api/v1/lookup/accounts/0/0/entities/ALL/history': ({ url }) => {
      const type = new URL(url, 'http://x/').searchParams.get('historyType');
      return jsonResponse([created, signIn].filter((e) => !type || e.historyType === type));
    },
    'GET api/v1/lookup/type/historyType/category/USER': () =>
      jsonResponse([
        { key: 'USER_CREATED', value: 'User created' },
        { key: 'USER_DELETED', value: 'User deleted' },
      ]),
  });
}

describe('Audit History', () => {
  it('lists every entry: time, category, type, user, entity, details, client address', async () => {
    serve();
    renderScreen(HistoryScreen, '/admin/history', '/admin/history');
    const table = await screen.findByRole('table', { name: 'Audit history' });
    const row = await within(table).findByRole('row', { name: /Login succeeded/ });
    expect(row).toHaveTextContent('03/05/2026 14:07');
    expect(row).toHaveTextContent('Sign-in');
    expect(row).toHaveTextContent('admin');
    expect(row).toHaveTextContent('User #1');
    expect(row).toHaveTextContent('127.0.0.1');
    expect(within(table).getByRole('row', { name: /User created/ })).toHaveTextContent('bob');
  });

  it('filters by category, then by history type', async () => {
    const fetch = serve();
    renderScreen(HistoryScreen, '/admin/history', '/admin/history');
    const user = userEvent.setup();
    await within(await screen.findByRole('table', { name: 'Audit history' })).findAllByRole('row', { name: /Login/ });
    await user.click(screen.getByRole('combobox', { name: 'Category' }));
    await user.click(await screen.findByRole('option', { name: 'User' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /Login succeeded/ })).not.toBeInTheDocument());
    expect(screen.getByRole('row', { name: /User created/ })).toBeInTheDocument();

    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'History type' })).not.toHaveAttribute('aria-disabled'),
    );
    await user.click(screen.getByRole('combobox', { name: 'History type' }));
    await user.click(await screen.findByRole('option', { name: 'User deleted' }));
    expect(await screen.findByText('No entries.')).toBeInTheDocument();
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain(
      'api/v1/lookup/accounts/0/0/entities/ALL/history?historyType=USER_DELETED',
    );
  });
});
