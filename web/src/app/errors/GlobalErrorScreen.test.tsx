import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { GlobalErrorScreen } from './GlobalErrorScreen';

describe('global error screen', () => {
  it('shows the title, the message and only the offered actions', async () => {
    const retry = vi.fn();
    const cancel = vi.fn();
    renderWithProviders(
      <GlobalErrorScreen title="Failed to open Portal" message="Git said no" actions={{ retry, cancel }} />,
    );
    expect(screen.getByRole('heading', { name: 'Failed to open Portal' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Git said no');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Retry', 'Cancel']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it('orders Reset Workspace, Retry, Continue, Cancel', () => {
    const noop = () => undefined;
    renderWithProviders(
      <GlobalErrorScreen title="t" message="m" actions={{ cancel: noop, continue: noop, retry: noop, reset: noop }} />,
    );
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Reset Workspace',
      'Retry',
      'Continue',
      'Cancel',
    ]);
  });
});
