import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { sampleUser } from '../../test/helpers';
import { useSessionStore } from '../../core/sessionStore';
import { LimitedModeDialog } from './LimitedModeDialog';
import { confirmLimitedMode, HIDE_LIMITED_KEY, isLimitedOverlayHidden } from './limitedMode';

const legacy = { id: 3, name: 'Legacy Crew Portal', supportLevel: 'LIMITED' as const };

beforeEach(() => {
  useSessionStore.setState({ status: 'loggedIn', user: { ...sampleUser }, probeConfig: null });
});

describe('limited-mode overlay', () => {
  it('Cancel answers false and remembers nothing', async () => {
    render(<LimitedModeDialog />);
    let answer: Promise<boolean> = Promise.resolve(true);
    act(() => {
      answer = confirmLimitedMode(legacy, sampleUser.id);
    });
    expect(await screen.findByRole('dialog', { name: 'Limited Portal' })).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(answer).resolves.toBe(false);
    expect(window.localStorage.getItem(HIDE_LIMITED_KEY)).toBeNull();
  });

  it("'Do not show this message again' + Proceed hides it for this user only", async () => {
    window.localStorage.setItem(HIDE_LIMITED_KEY, JSON.stringify({ 99: true }));
    render(<LimitedModeDialog />);
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = confirmLimitedMode(legacy, sampleUser.id);
    });
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Do not show this message again' }));
    await userEvent.click(screen.getByRole('button', { name: 'Proceed' }));
    await expect(answer).resolves.toBe(true);
    expect(JSON.parse(window.localStorage.getItem(HIDE_LIMITED_KEY) ?? '{}')).toEqual({
      99: true,
      [sampleUser.id]: true,
    });
    expect(isLimitedOverlayHidden(sampleUser.id)).toBe(true);
    expect(isLimitedOverlayHidden(8)).toBe(false);
    // Next time: no overlay, the answer is Proceed at once.
    await expect(confirmLimitedMode(legacy, sampleUser.id)).resolves.toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('links the user guide and previous version only when configured', async () => {
    useSessionStore.setState({
      probeConfig: {
        ws: { host: '' },
        documentation: [],
        legalDocs: [],
        links: [],
        uploadFilter: { image: [] },
        userGuide: { title: 'Guide', url: 'https://example.test/guide' },
      } as never,
    });
    render(<LimitedModeDialog />);
    act(() => {
      void confirmLimitedMode(legacy, sampleUser.id);
    });
    expect(await screen.findByRole('link', { name: 'User guide' })).toHaveAttribute(
      'href',
      'https://example.test/guide',
    );
    expect(screen.queryByRole('link', { name: 'Previous version' })).toBeNull();
  });
});
