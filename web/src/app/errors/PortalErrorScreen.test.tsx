import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { errorFromResponse } from '../../api/errors';
import { LIKELY_CAUSES, PORTAL_OPEN_FAILED_TITLE, PortalErrorScreen, SUBMIT_ERROR_COPIED } from './PortalErrorScreen';

describe('portal-open error screen', () => {
  it('shows the details and causes; Submit Error copies them; Retry and Reset call back', async () => {
    const error = errorFromResponse(
      409,
      JSON.stringify({
        errorCode: 'GIT_CONFLICTS',
        errorCodeDesc: 'Git conflicts',
        errorMessage: 'Conflicts in index.html',
      }),
    );
    const retry = vi.fn();
    const reset = vi.fn();
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    render(
      <PortalErrorScreen
        pageTitle="Portal Dashboard"
        message={error.errorMessage}
        error={error}
        actions={{ retry, reset }}
      />,
    );
    expect(screen.getByRole('heading', { name: PORTAL_OPEN_FAILED_TITLE })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Conflicts in index.html');
    expect(screen.getByText('409')).toBeInTheDocument();
    expect(screen.getByText(/GIT_CONFLICTS — Git conflicts/)).toBeInTheDocument();
    for (const cause of LIKELY_CAUSES) expect(screen.getByText(cause)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Submit Error' }));
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining('HTTP status: 409'));
    expect(writeText.mock.calls[0][0]).toContain('Error code: GIT_CONFLICTS (Git conflicts)');
    expect(await screen.findByText(SUBMIT_ERROR_COPIED)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await user.click(screen.getByRole('button', { name: 'Reset Workspace' }));
    expect(retry).toHaveBeenCalledOnce();
    expect(reset).toHaveBeenCalledOnce();
  });
});
