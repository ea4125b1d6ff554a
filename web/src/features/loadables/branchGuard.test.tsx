import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';
import { resetNotifications, upsertNotification } from '../realtime/notificationsStore';
import { BranchChangeDialogHost } from './BranchChangeDialog';
import { confirmBranchChange, isLoadableInProgress, loadableBeingCreated, useBranchGuardStore } from './branchGuard';
import { BRANCH_CHANGE_DIALOG_WIDTH, LOADABLE_MESSAGES as MSG } from './messages';

const card = (portalId: number, status: 'PROGRESS' | 'SUCCESS' = 'PROGRESS') => ({
  id: `GENERATE_LOADABLE-${portalId}`,
  title: 'Generating loadable',
  details: '',
  status,
  progress: 40,
  messageType: 'GENERATE_LOADABLE',
  data: { loadableId: 5, domainId: 1, portalId, domainName: 'Demo', portalName: 'Passenger Portal' },
});

beforeEach(() => {
  resetNotifications();
  useSelectionStore.setState({
    ...initialSelectionState,
    portal: { id: 2, name: 'Passenger Portal' },
    branch: 'master',
  });
  useBranchGuardStore.setState({ pending: null, hosts: 0 });
});
afterEach(() => {
  resetNotifications();
  useSelectionStore.setState({ ...initialSelectionState });
});

describe('confirmBranchChange', () => {
  it('lets the switch go on at once when no loadable of the open portal is being created', async () => {
    render(<BranchChangeDialogHost />);
    expect(await confirmBranchChange()).toBe(true);
    upsertNotification(card(9));
    upsertNotification({ ...card(2, 'SUCCESS'), id: 'x' });
    expect(loadableBeingCreated()).toBe(false);
    expect(await confirmBranchChange()).toBe(true);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks in a 600-wide dialog while a loadable is in progress: Cancel keeps the branch', async () => {
    const user = userEvent.setup();
    render(<BranchChangeDialogHost />);
    act(() => void upsertNotification(card(2)));
    expect(loadableBeingCreated()).toBe(true);
    let answer: Promise<boolean> = Promise.resolve(true);
    act(() => {
      answer = confirmBranchChange();
    });
    const dialog = await screen.findByRole('dialog', { name: MSG.branchChangeTitle });
    expect(dialog).toHaveTextContent(MSG.branchChangeText);
    expect(dialog.style.width || getComputedStyle(dialog).width).toBe(`${BRANCH_CHANGE_DIALOG_WIDTH}px`);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await answer).toBe(false);
  });

  it('Continue lets the switch go on', async () => {
    const user = userEvent.setup();
    render(<BranchChangeDialogHost />);
    act(() => void upsertNotification(card(2)));
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = confirmBranchChange();
    });
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await answer).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('recognises the cards of a portal', () => {
    expect(isLoadableInProgress(card(2), '2')).toBe(true);
    expect(isLoadableInProgress(card(2), '3')).toBe(false);
    expect(isLoadableInProgress({ ...card(2), messageType: 'CREATE_PREVIEW' }, '2')).toBe(false);
    expect(isLoadableInProgress(card(2, 'SUCCESS'), '2')).toBe(false);
  });
});
