import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ToastStack } from './ToastStack';
import { clearToasts, useToastStore } from '../core/toastService';
import { MESSAGES, portalName } from '../lib/validation';
import { errorResponse, jsonResponse, mockFetch } from '../test/helpers';
import { renderWithProviders, signIn } from '../test/render';
import { api } from '../api/client';
import { ConfirmDialog } from './ConfirmDialog';
import { DataTable, DEFAULT_PAGE_SIZE, PAGE_SIZES, sortRows, type Column } from './DataTable';
import { FormDialog } from './FormDialog';
import { PageFrame } from './PageFrame';
import { requiredField } from './schemas';
import { useAction } from './useAction';
import { ValidatedTextField } from './ValidatedTextField';

afterEach(() => {
  vi.unstubAllGlobals();
  clearToasts();
});

interface Row {
  id: number;
  name: string;
}
const rows: Row[] = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, name: `Portal ${String(i + 1)}` }));
const columns: Array<Column<Row>> = [
  { id: 'name', header: 'Name', cell: (r) => r.name, sortValue: (r) => r.name },
  { id: 'id', header: 'Id', cell: (r) => r.id },
];

describe('PageFrame', () => {
  it('has an h1 title, the actions and the content', () => {
    renderWithProviders(
      <PageFrame title="Users" actions={<button type="button">Create User</button>}>
        <p>content</p>
      </PageFrame>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create User' })).toBeInTheDocument();
    expect(screen.getByText('content')).toBeInTheDocument();
  });
});

describe('DataTable', () => {
  it('is a real table with headers; pages by the spec sizes (default 10) and sorts', async () => {
    expect(PAGE_SIZES).toEqual([5, 10, 25, 100]);
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    const user = userEvent.setup();
    renderWithProviders(<DataTable label="Portals" columns={columns} rows={rows} rowKey={(r) => r.id} />);
    const table = screen.getByRole('table', { name: 'Portals' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Id']);
    // 10 body rows + the header row + the pagination row
    expect(within(table).getAllByRole('row')).toHaveLength(12);
    await user.click(within(table).getByRole('button', { name: /next page/i }));
    expect(within(table).getByRole('row', { name: /Portal 12/ })).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Name' }));
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(within(table).getByRole('button', { name: 'Name' }));
    expect(within(table).getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');
    expect(
      sortRows(rows, columns[0], 'asc')
        .map((r) => r.id)
        .slice(0, 3),
    ).toEqual([1, 2, 3]);
  });

  it('shows loading, error (with Retry) and empty rows', async () => {
    const retry = vi.fn();
    const { rerender } = renderWithProviders(
      <DataTable label="T" columns={columns} rows={undefined} rowKey={(r) => r.id} loading loadingText="Loading x" />,
    );
    expect(screen.getByRole('progressbar', { name: 'Loading x' })).toBeInTheDocument();
    rerender(
      <DataTable
        label="T"
        columns={columns}
        rows={undefined}
        rowKey={(r) => r.id}
        error={new Error('x')}
        errorTitle="Could not load x"
        onRetry={retry}
      />,
    );
    expect(await screen.findByText('Could not load x')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalled();
    rerender(<DataTable label="T" columns={columns} rows={[]} rowKey={(r) => r.id} emptyText="Nothing here." />);
    expect(await screen.findByText('Nothing here.')).toBeInTheDocument();
  });
});

describe('ConfirmDialog', () => {
  it('disables confirm and shows progress while pending', () => {
    const confirm = vi.fn();
    renderWithProviders(
      <ConfirmDialog
        open
        title="Delete"
        message="Sure?"
        confirmLabel="Delete"
        pending
        onConfirm={confirm}
        onClose={vi.fn()}
      />,
    );
    const button = within(screen.getByRole('dialog', { name: 'Delete' })).getByRole('button', { name: 'Delete' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    fireEvent.click(button);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('keeps confirm disabled while confirmDisabled; a separate cancel action does not close', () => {
    const confirm = vi.fn();
    const cancel = vi.fn();
    const close = vi.fn();
    renderWithProviders(
      <ConfirmDialog
        open
        title="Leave"
        message="Unsaved changes."
        confirmLabel="Save"
        cancelLabel="Continue"
        confirmDisabled
        onConfirm={confirm}
        onCancel={cancel}
        onClose={close}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Leave' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    expect(save).not.toHaveAttribute('aria-busy');
    fireEvent.click(save);
    expect(confirm).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(close).not.toHaveBeenCalled();
  });
});

function ActionProbe({ onDone }: { onDone: () => void }) {
  const save = useAction({
    action: () => api.post<unknown>('thing'),
    success: 'Saved.',
    failure: 'Could not save the thing',
    onSuccess: onDone,
  });
  return (
    <>
      <button type="button" onClick={() => save.run()} disabled={save.pending}>
        Save
      </button>
      <ToastStack />
    </>
  );
}

describe('useAction', () => {
  beforeEach(() => signIn());

  it('runs once on a double click, then toasts success', async () => {
    let calls = 0;
    mockFetch({
      'POST api/v1/thing': async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 20));
        return jsonResponse({});
      },
    });
    const done = vi.fn();
    renderWithProviders(<ActionProbe onDone={done} />);
    const button = screen.getByRole('button', { name: 'Save' });
    act(() => {
      button.click();
      button.click();
    });
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(calls).toBe(1);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it('titles the failure toast with the case, not the HTTP phrase', async () => {
    mockFetch({ 'POST api/v1/thing': () => errorResponse(400, { errorTitle: 'Bad Request', errorMessage: 'Nope' }) });
    renderWithProviders(<ActionProbe onDone={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(useToastStore.getState().toasts).toHaveLength(1));
    expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Could not save the thing', message: 'Nope' });
  });

  it('tells which call is running (variables) until it ends', async () => {
    let release = () => {};
    mockFetch({
      'POST api/v1/thing': () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(jsonResponse({}));
        }),
    });
    function Which() {
      const save = useAction({ action: (kind: string) => api.post<unknown>('thing', { kind }), failure: 'Failed' });
      return (
        <>
          <button type="button" onClick={() => save.run('draft')}>
            Draft
          </button>
          <output aria-label="running">{save.variables ?? 'none'}</output>
        </>
      );
    }
    renderWithProviders(<Which />);
    expect(screen.getByRole('status', { name: 'running' })).toHaveTextContent('none');
    fireEvent.click(screen.getByRole('button', { name: 'Draft' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'running' })).toHaveTextContent('draft'));
    act(() => release());
    await waitFor(() => expect(screen.getByRole('status', { name: 'running' })).toHaveTextContent('none'));
  });
});

function NameForm({ onSubmit }: { onSubmit: (v: { name: string }) => Promise<unknown> }) {
  const [open, setOpen] = useState(true);
  return (
    <FormDialog
      open={open}
      title="Rename Portal"
      schema={z.object({ name: requiredField(portalName) })}
      defaultValues={{ name: '' }}
      submitLabel="Rename"
      onSubmit={onSubmit}
      onClose={() => setOpen(false)}
    >
      {(form) => <ValidatedTextField name="name" control={form.control} label="Portal name" required />}
    </FormDialog>
  );
}

describe('FormDialog and ValidatedTextField', () => {
  it('keeps submit disabled while invalid, says length not characters, sends once and closes', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const submit = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    renderWithProviders(<NameForm onSubmit={submit} />);
    const dialog = screen.getByRole('dialog', { name: 'Rename Portal' });
    const rename = within(dialog).getByRole('button', { name: 'Rename' });
    expect(rename).toBeDisabled();
    const field = within(dialog).getByLabelText(/^Portal name/);
    await user.type(field, 'x');
    await user.clear(field);
    expect(within(dialog).getByText(MESSAGES.fieldRequired)).toBeInTheDocument();
    await user.click(field);
    await user.paste('p'.repeat(300));
    expect(within(dialog).getByText('The name must be at most 100 characters.')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'Crew (A320)');
    await waitFor(() => expect(rename).toBeEnabled());
    await user.dblClick(rename);
    await waitFor(() => expect(rename).toBeDisabled());
    expect(submit).toHaveBeenCalledTimes(1);
    act(() => release());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows a server error in the form and stays open', async () => {
    const user = userEvent.setup();
    renderWithProviders(<NameForm onSubmit={() => Promise.reject(new Error('offline'))} />);
    const dialog = screen.getByRole('dialog', { name: 'Rename Portal' });
    await user.type(within(dialog).getByLabelText(/^Portal name/), 'Crew');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('An unknown error occurred');
    expect(screen.getByRole('dialog', { name: 'Rename Portal' })).toBeInTheDocument();
  });
});
