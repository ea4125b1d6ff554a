import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { entryStartingWith, PickerPopover } from './PickerPopover';

const NAMES = ['Alpha', 'Bravo', 'Beta', 'Charlie'];

function Picker({
  names = NAMES,
  selected,
  onPick = () => undefined,
}: {
  names?: string[];
  selected?: string;
  onPick?: (n: string) => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <button onClick={(e) => setAnchor(e.currentTarget)}>Select Thing</button>
      {anchor && (
        <PickerPopover anchorEl={anchor} onClose={() => setAnchor(null)} label="Select Thing">
          <List aria-label="Things">
            {names.map((name) => (
              <ListItemButton
                key={name}
                selected={name === selected}
                onClick={() => {
                  setAnchor(null);
                  onPick(name);
                }}
              >
                {name}
              </ListItemButton>
            ))}
          </List>
        </PickerPopover>
      )}
    </>
  );
}

const entry = (name: string) => screen.getByRole('button', { name });

describe('PickerPopover', () => {
  it('starts on the current choice; the arrows, Home and End move, wrapping round; Enter chooses', async () => {
    const user = userEvent.setup();
    const onPick = vi.fn();
    render(<Picker selected="Bravo" onPick={onPick} />);
    await user.click(screen.getByRole('button', { name: 'Select Thing' }));
    expect(await screen.findByRole('dialog', { name: 'Select Thing' })).toBeInTheDocument();
    await waitFor(() => expect(entry('Bravo')).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(entry('Beta')).toHaveFocus();
    await user.keyboard('{End}');
    expect(entry('Charlie')).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(entry('Alpha')).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(entry('Charlie')).toHaveFocus();
    await user.keyboard('{Home}');
    expect(entry('Alpha')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onPick).toHaveBeenCalledWith('Alpha');
  });

  it('starts on the first entry without a choice, once the entries are shown', async () => {
    const user = userEvent.setup();
    const { rerender } = render(<Picker names={[]} />);
    await user.click(screen.getByRole('button', { name: 'Select Thing' }));
    await screen.findByRole('dialog', { name: 'Select Thing' });
    rerender(<Picker names={NAMES} />);
    await waitFor(() => expect(entry('Alpha')).toHaveFocus());
  });

  it('jumps to the next entry starting with the typed letters', async () => {
    const user = userEvent.setup();
    render(<Picker />);
    await user.click(screen.getByRole('button', { name: 'Select Thing' }));
    await waitFor(() => expect(entry('Alpha')).toHaveFocus());
    // The typed letters join within 500 ms: the clock is the test's, not the (busy) machine's.
    const now = vi.spyOn(Date, 'now').mockReturnValue(10_000);
    await user.keyboard('b');
    expect(entry('Bravo')).toHaveFocus();
    now.mockReturnValue(10_100);
    await user.keyboard('e');
    expect(entry('Beta')).toHaveFocus();
    now.mockReturnValue(11_000);
    await user.keyboard('c');
    expect(entry('Charlie')).toHaveFocus();
  });

  it('closes on Escape, the focus back on the entry that opened it', async () => {
    const user = userEvent.setup();
    render(<Picker />);
    const opener = screen.getByRole('button', { name: 'Select Thing' });
    await user.click(opener);
    await waitFor(() => expect(entry('Alpha')).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });
});

describe('entryStartingWith', () => {
  it('searches after the given entry, wrapping round, case-insensitively', () => {
    const entries = NAMES.map((name) => Object.assign(document.createElement('div'), { textContent: name }));
    expect(entryStartingWith(entries, 0, 'b')?.textContent).toBe('Bravo');
    expect(entryStartingWith(entries, 1, 'B')?.textContent).toBe('Beta');
    expect(entryStartingWith(entries, 2, 'b')?.textContent).toBe('Bravo');
    expect(entryStartingWith(entries, -1, 'a')?.textContent).toBe('Alpha');
    expect(entryStartingWith(entries, 0, 'z')).toBeUndefined();
  });
});
