import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastStack } from '../../ui/ToastStack';
import { clearToasts, useToastStore } from '../../core/toastService';
import { renderWithProviders, signIn } from '../../test/render';
import { fakeFile, sizeLimits } from './fixtures';
import { ASSET_MESSAGES, UPLOAD_TOAST_MS } from './messages';
import { MockXhr } from './testXhr';
import { UploadDialog } from './UploadDialog';

beforeEach(() => {
  signIn();
  MockXhr.instances = [];
  vi.stubGlobal('XMLHttpRequest', MockXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearToasts();
});

function render() {
  const onClose = vi.fn();
  const onFileUploaded = vi.fn();
  renderWithProviders(
    <>
      <UploadDialog
        domain="1"
        portal="2"
        folder="/images"
        existingNames={new Set(['logo.png'])}
        limits={sizeLimits}
        onFileUploaded={onFileUploaded}
        onClose={onClose}
      />
      <ToastStack />
    </>,
  );
  const user = userEvent.setup({ applyAccept: false });
  const dialog = screen.getByRole('dialog', { name: 'Upload Files' });
  const add = (files: File[]) => user.upload(screen.getByTestId('upload-input'), files);
  return { user, dialog, add, onClose, onFileUploaded };
}

const toastsNow = () => useToastStore.getState().toasts;

describe('UploadDialog', () => {
  it('starts empty with Upload disabled, and shows the spec warnings and errors', async () => {
    const { dialog, add } = render();
    expect(within(dialog).getByText(ASSET_MESSAGES.noFilesSelected)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Upload' })).toBeDisabled();

    await add([fakeFile('a#b.png'), fakeFile('logo.png'), fakeFile('big.png', 2 * 1024 * 1024), fakeFile('new.png')]);
    expect(within(dialog).getByText(ASSET_MESSAGES.specialCharacters)).toBeInTheDocument();
    expect(within(dialog).getByText(ASSET_MESSAGES.alreadyExist)).toBeInTheDocument();
    expect(toastsNow().map((t) => [t.message, t.timeOut])).toEqual([
      [
        "Cannot add 'big.png' as it exceeds the allowed file size of 1.00 MB for it's type",
        UPLOAD_TOAST_MS.errorInDialog,
      ],
    ]);
    const table = within(dialog).getByRole('table', { name: 'Files to upload' });
    expect(within(table).getByRole('row', { name: /logo\.png.*Yes/ })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /new\.png.*No/ })).toBeInTheDocument();
    expect(within(table).queryByText('a#b.png')).not.toBeInTheDocument();

    // Over the total: 399mb.
    const mp4 = (name: string, mb: number) => fakeFile(name, mb * 1024 * 1024, 'video/mp4');
    await add([mp4('a.mp4', 250), mp4('b.mp4', 200)]);
    expect(toastsNow().map((t) => t.message)).toContain(
      "Cannot add 'b.mp4' as it exceeds the allowed max upload amount size of 399mb",
    );
    await userEvent.click(within(table).getByRole('button', { name: 'Remove new.png' }));
    expect(within(table).queryByText('new.png')).not.toBeInTheDocument();
  });

  it('uploads at most 3 files at once with the bearer token, progress clamped, then toasts success', async () => {
    const { user, dialog, add, onClose, onFileUploaded } = render();
    await add(['1', '2', '3', '4', '5'].map((n) => fakeFile(`f${n}.png`)));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(MockXhr.instances).toHaveLength(3));
    expect(within(dialog).getByText('Uploading 5 files, please wait...')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Upload' })).toBeDisabled();
    const [first] = MockXhr.instances;
    expect(first.method).toBe('POST');
    expect(first.url).toBe('api/v1/assets/1/2/multi/src/images');
    expect(first.headers.Authorization).toMatch(/^Bearer .+/);
    expect(first.fileNames()).toEqual(['f1.png']);

    act(() => first.progress(150, 100));
    expect(within(dialog).getByRole('progressbar', { name: 'Upload of f1.png' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    act(() => MockXhr.instances[1].progress(30, 120));
    expect(within(dialog).getByRole('progressbar', { name: 'Upload of f2.png' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );

    act(() => first.respond(200, { success: ['f1.png'], errors: [] }));
    await waitFor(() => expect(MockXhr.instances).toHaveLength(4));
    expect(MockXhr.open).toHaveLength(3);
    for (const xhr of MockXhr.instances.slice(1)) act(() => xhr.respond(200, { success: xhr.fileNames(), errors: [] }));
    await waitFor(() => expect(MockXhr.instances).toHaveLength(5));
    act(() => MockXhr.instances[4].respond(200, { success: ['f5.png'], errors: [] }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onFileUploaded).toHaveBeenCalledTimes(5);
    expect(toastsNow().find((t) => t.message === ASSET_MESSAGES.uploadSuccessful)).toMatchObject({
      timeOut: UPLOAD_TOAST_MS.successMany,
    });
  });

  it('shows 413 as file size exceeded and a rule error, offers Retry', async () => {
    const { user, dialog, add } = render();
    await add([fakeFile('a.png'), fakeFile('b.json', 10, 'application/json')]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(MockXhr.instances).toHaveLength(2));
    act(() => MockXhr.instances[0].respond(413, { errorMessage: 'file size exceeded', httpStatus: 413 }));
    act(() =>
      MockXhr.instances[1].respond(200, {
        success: [],
        errors: [
          {
            filename: 'b.json',
            error: JSON.stringify({
              errorCodeDesc: 'CONTENT_VALIDATION_FAILED',
              errorMessage: 'Invalid',
              data: { ruleErrors: [{ message: 'title is required' }] },
            }),
          },
        ],
      }),
    );
    expect(await within(dialog).findByText('file size exceeded')).toBeInTheDocument();
    expect(within(dialog).getByText('title is required')).toBeInTheDocument();
    expect(toastsNow().map((t) => t.title)).toEqual(
      expect.arrayContaining(['Error while uploading file a.png', 'Error while uploading file b.json']),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Retry a.png' }));
    await waitFor(() => expect(MockXhr.instances).toHaveLength(3));
    act(() => MockXhr.instances[2].respond(200, { success: ['a.png'], errors: [] }));
    await waitFor(() =>
      expect(toastsNow().find((t) => t.message === ASSET_MESSAGES.uploadSuccessful)).toMatchObject({
        timeOut: UPLOAD_TOAST_MS.successOne,
      }),
    );
  });

  it('cancels unfinished uploads on close with a warning', async () => {
    const { user, dialog, add, onClose } = render();
    await add([fakeFile('a.png')]);
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(MockXhr.instances).toHaveLength(1));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(MockXhr.instances[0].aborted).toBe(true);
    expect(onClose).toHaveBeenCalled();
    expect(toastsNow().find((t) => t.message === ASSET_MESSAGES.uploadCancelled)).toMatchObject({ type: 'WARNING' });
  });
});
