import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '../../../lib/validation';
import { CommitBox } from './CommitBox';

// Issue 30 item 4: the box checks the portal's commit message rule and says which applies.
describe('CommitBox', () => {
  const box = (rule?: string) => {
    const onSubmit = vi.fn(() => Promise.resolve(true));
    render(<CommitBox rule={rule} count={1} inConflict={false} onRevertAll={() => undefined} onSubmit={onSubmit} />);
    return { onSubmit, user: userEvent.setup() };
  };

  it("takes a project's conventional message under ANY_TEXT", async () => {
    const { onSubmit, user } = box('ANY_TEXT');
    expect(screen.getByText('Any text; first line up to 200 characters')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Commit message'), 'chore(i18n): update fr');
    expect(screen.getByText('Any text; first line up to 200 characters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledWith('chore(i18n): update fr');
  });

  it("refuses it under the spec's rule (the default) with the spec's message", async () => {
    const { onSubmit, user } = box();
    expect(screen.getByText('Letters, digits and spaces only')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Commit message'), 'chore(i18n): update fr');
    expect(screen.getByText(MESSAGES.commitFormat)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
