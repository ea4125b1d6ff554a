import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { RichTextEditor } from './RichTextEditor';
import { editorInput, editorOutput } from './richTextValue';

describe('rich text values', () => {
  it('sanitise what goes in: a script and an onerror never survive', () => {
    const loaded = editorInput('<p>Hi<script>alert(1)</script><img src="a.png" onerror="alert(2)"></p>');
    expect(loaded).not.toMatch(/script|onerror|alert/i);
  });

  it('sanitise and normalise links on the way out', () => {
    const out = editorOutput(
      '<p><a href="www.example.com">w</a> <a href="mailto:x@y.z">m</a> <a href="#top">t</a> <a href="https://a.b" onclick="x()">a</a></p>',
      '',
    );
    expect(out).toContain('href="//www.example.com"');
    expect(out).toContain('<a href="mailto:x@y.z">m</a>');
    expect(out).toContain('<a href="#top">t</a>');
    expect(out).not.toContain('onclick');
    expect(out.match(/target="_blank"/g)).toHaveLength(2);
    expect(out.match(/rel="noopener noreferrer"/g)).toHaveLength(2);
  });

  it('keep plain text plain; an empty editor is empty', () => {
    expect(editorOutput('<p>Hello &amp; bye</p>', 'Hello')).toBe('Hello & bye');
    expect(editorOutput('<p>Hello</p>', '<p>Hello</p>')).toBe('<p>Hello</p>');
    expect(editorOutput('<p><strong>Hello</strong></p>', 'Hello')).toBe('<p><strong>Hello</strong></p>');
    expect(editorOutput('<p></p>', 'x')).toBe('');
    expect(editorInput('Plain')).toBe('Plain');
  });
});

function Harness({ initial, onChange }: { initial: string; onChange: (v: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <RichTextEditor
        value={value}
        ariaLabel="Value"
        dir="rtl"
        spellCheck={false}
        onChange={(v) => {
          setValue(v);
          onChange(v);
        }}
      />
      <button type="button" onClick={() => setValue('<p>Outside <a href="example.org">x</a></p>')}>
        replace
      </button>
    </>
  );
}

describe('RichTextEditor', () => {
  it('loads lazily, is a named textbox with dir and spellcheck, and does not emit without an edit', async () => {
    const onChange = vi.fn();
    render(<Harness initial="Plain text" onChange={onChange} />);
    const box = await screen.findByRole('textbox', { name: 'Value' });
    expect(box).toHaveAttribute('dir', 'rtl');
    expect(box).toHaveAttribute('spellcheck', 'false');
    await waitFor(() => expect(box).toHaveTextContent('Plain text'));
    expect(screen.getByRole('toolbar', { name: 'Value formatting' })).toBeInTheDocument();
    for (const name of ['Bold', 'Italic', 'Bullet list', 'Numbered list', 'Link'])
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    // A new value from outside is loaded (sanitised) without an onChange.
    act(() => screen.getByRole('button', { name: 'replace' }).click());
    await waitFor(() => expect(box).toHaveTextContent('Outside'));
    expect(box.querySelector('a')).toHaveAttribute('href', '//example.org');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('is read-only without a toolbar', async () => {
    render(<RichTextEditor value="<p>Default</p>" ariaLabel="Default value" readOnly />);
    const box = await screen.findByRole('textbox', { name: 'Default value' });
    expect(box).toHaveAttribute('contenteditable', 'false');
    expect(box).toHaveAttribute('aria-readonly', 'true');
    expect(screen.queryByRole('toolbar')).not.toBeInTheDocument();
  });

  it('has one Tab stop in its toolbar; the arrow keys move between the buttons', async () => {
    const user = userEvent.setup();
    render(
      <>
        <button type="button">before</button>
        <RichTextEditor value="Text" ariaLabel="Value" onChange={() => undefined} />
      </>,
    );
    const box = await screen.findByRole('textbox', { name: 'Value' });
    screen.getByRole('button', { name: 'before' }).focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Bold' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'Italic' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('button', { name: 'Link' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'Bold' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    // Tab leaves the toolbar for the text; Shift+Tab comes back to the button last focused.
    await user.tab();
    expect(box).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Link' })).toHaveFocus();
  });
});
