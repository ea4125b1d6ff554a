import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { HeaderPopover } from './HeaderPopover';

/** A panel whose only button goes away once clicked (as Run Tasks does while the tasks run). */
function Panel() {
  const [running, setRunning] = useState(false);
  return running ? <p>Running</p> : <button onClick={() => setRunning(true)}>Run</button>;
}

describe('HeaderPopover', () => {
  it('opens its panel with the trigger named and expanded, and closes on Escape', async () => {
    const user = userEvent.setup();
    render(
      <HeaderPopover label="Tasks" icon={<span>T</span>} kind="dialog" panelLabel="Task panel">
        <Panel />
      </HeaderPopover>,
    );
    const trigger = screen.getByRole('button', { name: 'Tasks' });
    expect(trigger).toHaveAttribute('aria-haspopup', 'dialog');
    await user.click(trigger);
    expect(await screen.findByRole('dialog', { name: 'Task panel' })).toBeInTheDocument();
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Task panel' })).not.toBeInTheDocument());
  });

  it('closes on Escape even when the focused control left the panel', async () => {
    const user = userEvent.setup();
    render(
      <HeaderPopover label="Tasks" icon={<span>T</span>} kind="dialog" panelLabel="Task panel">
        <Panel />
      </HeaderPopover>,
    );
    await user.click(screen.getByRole('button', { name: 'Tasks' }));
    await user.click(await screen.findByRole('button', { name: 'Run' }));
    expect(screen.getByText('Running')).toBeInTheDocument();
    (document.activeElement as HTMLElement | null)?.blur();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Task panel' })).not.toBeInTheDocument());
  });
});
