import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../../test/helpers';
import OutboxScreen from './OutboxScreen';
import { called } from '../../test/helpers';
import { renderScreen } from '../../test/render';

afterEach(() => vi.unstubAllGlobals());

const held = {
  id: 1,
  to: 'bob@x.test',
  toName: 'Bob B',
  subject: 'Your Portalwright one-time password',
  text: 'Hello Bob,\n\nYour one-time password is:\n\n    sj34qHERgs4D\n',
  status: 'held',
  attempts: 0,
  lastError: '',
  createdAt: '2026-03-05T14:07:00',
  sentAt: null,
};
const sent = { ...held, id: 2, to: 'eve@x.test', subject: 'Hi Eve', text: 'Hi', status: 'sent', attempts: 1 };
const failed = {
  ...held,
  id: 3,
  to: 'zed@x.test',
  subject: 'Bounce',
  status: 'failed',
  attempts: 3,
  lastError: '550 no such user',
};

function serve() {
  return mockFetch({
    'GET api/v1/admin/outbox': ({ url }) => {
      const status = new URL(url, 'http://x/').searchParams.get('status');
      return jsonResponse([held, sent, failed].filter((m) => !status || m.status === status));
    },
    'POST api/v1/admin/outbox/1/retry': () => new Response(null, { status: 204 }),
  });
}

function render() {
  renderScreen(OutboxScreen, '/admin/outbox', '/admin/outbox');
  return userEvent.setup();
}

describe('Mail Outbox', () => {
  it('lists the mails with status, time, recipient, subject, attempts and last error', async () => {
    serve();
    render();
    const table = await screen.findByRole('table', { name: 'Outbox' });
    const row = await within(table).findByRole('row', { name: /bob@x\.test/ });
    expect(row).toHaveTextContent('held');
    expect(row).toHaveTextContent('03/05/2026 14:07');
    expect(row).toHaveTextContent('Your Portalwright one-time password');
    expect(within(table).getByRole('row', { name: /zed@x\.test/ })).toHaveTextContent('550 no such user');
    expect(screen.getByText(/SMTP is not configured: messages are kept here\./)).toBeInTheDocument();
  });

  it('offers Retry for failed, held and skipped mails only', async () => {
    const fetch = serve();
    const user = render();
    const table = await screen.findByRole('table', { name: 'Outbox' });
    expect(within(await within(table).findByRole('row', { name: /eve@x\.test/ })).queryByText('Retry')).toBeNull();
    expect(within(within(table).getByRole('row', { name: /zed@x\.test/ })).getByText('Retry')).toBeInTheDocument();
    await user.click(
      screen.getByRole('button', { name: 'Retry the e-mail to bob@x.test: Your Portalwright one-time password' }),
    );
    expect(await screen.findByText('The e-mail to bob@x.test was queued again.')).toBeInTheDocument();
    expect(called(fetch, 'POST api/v1/admin/outbox/1/retry')).toBe(true);
  });

  it('opens the full message text', async () => {
    serve();
    const user = render();
    await user.click(await screen.findByRole('button', { name: 'Your Portalwright one-time password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your Portalwright one-time password' });
    expect(within(dialog).getByLabelText('Message text')).toHaveTextContent('sj34qHERgs4D');
    expect(within(dialog).getByText('To: Bob B <bob@x.test>')).toBeInTheDocument();
  });

  it('filters by status', async () => {
    const fetch = serve();
    const user = render();
    await within(await screen.findByRole('table', { name: 'Outbox' })).findAllByRole('button', { name: /^Retry/ });
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'sent' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /bob@x\.test/ })).not.toBeInTheDocument());
    expect(screen.getByRole('row', { name: /eve@x\.test/ })).toBeInTheDocument();
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain('api/v1/admin/outbox?status=sent&limit=200');
  });
});
