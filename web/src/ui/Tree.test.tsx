import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Tree } from './Tree';

interface Node {
  id: string;
  children?: Node[];
}

const root: Node = {
  id: 'root',
  children: [
    { id: 'a', children: [{ id: 'a1' }, { id: 'a2' }] },
    { id: 'b', children: [{ id: 'b1' }] },
  ],
};

function Probe({ startsOpen = (n: Node) => n.id === 'root' }: { startsOpen?: (n: Node) => boolean }) {
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <>
      <Tree
        root={root}
        label="Things"
        idOf={(n) => n.id}
        childrenOf={(n) => n.children ?? []}
        nameOf={(n) => n.id.toUpperCase()}
        startsOpen={startsOpen}
        selectedId={selected}
        onSelect={(n) => setSelected(n.id)}
        namedByTitle
        renderLabel={(n, titleId) => <span id={titleId}>{n.id.toUpperCase()}</span>}
      />
      <output aria-label="selected">{selected ?? 'none'}</output>
    </>
  );
}

const item = (name: string) => screen.getByRole('treeitem', { name });
const row = (name: string) =>
  within(item(name))
    .getAllByRole('button')
    .find((b) => b.textContent === name)!;

describe('Tree', () => {
  it('shows the nodes that start open, with tree semantics', () => {
    render(<Probe />);
    expect(screen.getByRole('tree', { name: 'Things' })).toBeInTheDocument();
    expect(item('ROOT')).toHaveAttribute('aria-expanded', 'true');
    expect(item('A')).toHaveAttribute('aria-level', '2');
    expect(item('A')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('treeitem', { name: 'A1' })).toBeNull();
  });

  it('expands and collapses with the button, and selects a row on click', async () => {
    const user = userEvent.setup();
    render(<Probe />);
    await user.click(screen.getByRole('button', { name: 'Expand A' }));
    expect(item('A')).toHaveAttribute('aria-expanded', 'true');
    expect(item('A2')).toHaveAttribute('aria-level', '3');
    await user.click(row('A2'));
    expect(item('A2')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('status', { name: 'selected' })).toHaveTextContent('a2');
    await user.click(screen.getByRole('button', { name: 'Collapse A' }));
    expect(screen.queryByRole('treeitem', { name: 'A2' })).toBeNull();
  });

  it('moves, opens, closes and selects from the keyboard', async () => {
    const user = userEvent.setup();
    render(<Probe />);
    row('ROOT').focus();
    await user.keyboard('{ArrowDown}');
    expect(row('A')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(item('A')).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{ArrowRight}');
    expect(row('A1')).toHaveFocus();
    await user.keyboard('{End}');
    expect(row('B')).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(row('A2')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(row('A')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(item('A')).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('status', { name: 'selected' })).toHaveTextContent('a');
    await user.keyboard('{Home}');
    expect(row('ROOT')).toHaveFocus();
  });

  it('keeps a toggled node as the user left it, and new nodes as they start', async () => {
    const user = userEvent.setup();
    render(<Probe startsOpen={() => true} />);
    expect(item('B')).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('button', { name: 'Collapse B' }));
    expect(item('B')).toHaveAttribute('aria-expanded', 'false');
    expect(item('A')).toHaveAttribute('aria-expanded', 'true');
  });
});
