/**
 * The TipTap body of RichTextEditor (loaded lazily: TipTap and ProseMirror stay out of the shell
 * bundle). A small toolbar (bold, italic, bullet and numbered lists, link) over a ProseMirror
 * textbox; HTML in and out goes through lib/sanitizeHtml.
 */
import FormatBoldIcon from '@mui/icons-material/FormatBold';
import FormatItalicIcon from '@mui/icons-material/FormatItalic';
import FormatListBulletedIcon from '@mui/icons-material/FormatListBulleted';
import FormatListNumberedIcon from '@mui/icons-material/FormatListNumbered';
import LinkIcon from '@mui/icons-material/Link';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Link from '@tiptap/extension-link';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { normalizeLinkHref } from '../../../lib/sanitizeHtml';
import { releaseTabOnEscape } from '../../../ui/releaseTabOnEscape';
import type { RichTextEditorProps } from './RichTextEditor';
import { editorInput, editorOutput } from './richTextValue';

export default function TipTapEditor({
  value,
  onChange,
  readOnly = false,
  dir = 'ltr',
  spellCheck = true,
  ariaLabel,
  minHeight = 160,
}: RichTextEditorProps) {
  // The value this editor last emitted or loaded: a prop equal to it is our own echo.
  const current = useRef(value);
  const original = useRef(value);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: false, heading: false, codeBlock: false, code: false, horizontalRule: false }),
      Link.configure({ openOnClick: false, autolink: false, linkOnPaste: true }),
    ],
    content: editorInput(value),
    editable: !readOnly,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': ariaLabel,
        dir,
        spellcheck: String(spellCheck),
        ...(readOnly ? { 'aria-readonly': 'true' } : {}),
      },
    },
    onUpdate: ({ editor: e }) => {
      const next = editorOutput(e.getHTML(), original.current);
      current.current = next;
      onChangeRef.current?.(next);
    },
  });

  // A new value from outside (another key, another language, a reload): load it without emitting.
  useEffect(() => {
    if (!editor || value === current.current) return;
    current.current = value;
    original.current = value;
    editor.commands.setContent(editorInput(value), { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    editor?.setEditable(!readOnly, false);
  }, [editor, readOnly]);

  // Tab nests a list item; Escape then Tab leaves the editor (no keyboard trap).
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => (box.current ? releaseTabOnEscape(box.current) : undefined), []);

  useEffect(() => {
    if (!editor) return;
    editor.setOptions({
      editorProps: {
        attributes: {
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-label': ariaLabel,
          dir,
          spellcheck: String(spellCheck),
          ...(readOnly ? { 'aria-readonly': 'true' } : {}),
        },
      },
    });
  }, [editor, ariaLabel, dir, spellCheck, readOnly]);

  return (
    <Box
      ref={box}
      dir={dir}
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: readOnly ? 'action.hover' : 'background.paper',
        '& .ProseMirror': { minHeight, p: 1.5, outline: 'none' },
        '& .ProseMirror:focus-visible': { outline: 2, outlineColor: 'primary.main' },
        '& .ProseMirror p': { my: 0.5 },
      }}
    >
      {!readOnly && editor && <Toolbar editor={editor} label={ariaLabel} />}
      <EditorContent editor={editor} />
    </Box>
  );
}

function Toolbar({ editor, label }: { editor: Editor; label: string }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      link: e.isActive('link'),
      href: (e.getAttributes('link').href as string | undefined) ?? '',
    }),
  });
  const [linkOpen, setLinkOpen] = useState(false);
  const chain = () => editor.chain().focus();
  // One Tab stop; the arrow keys, Home and End move between the buttons (WAI-ARIA toolbar).
  const [current, setCurrent] = useState(0);
  const bar = useRef<HTMLDivElement>(null);
  const tool = (index: number) => ({ tabIndex: index === current ? 0 : -1, onFocus: () => setCurrent(index) });

  function onKeyDown(e: KeyboardEvent) {
    const buttons = [...(bar.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const next: Record<string, number> = {
      ArrowRight: (at + 1) % buttons.length,
      ArrowLeft: (at - 1 + buttons.length) % buttons.length,
      Home: 0,
      End: buttons.length - 1,
    };
    if (!(e.key in next)) return;
    e.preventDefault();
    buttons[next[e.key]].focus();
  }

  return (
    <Stack
      ref={bar}
      direction="row"
      role="toolbar"
      aria-label={`${label} formatting`}
      spacing={0.5}
      onKeyDown={onKeyDown}
      sx={{ borderBottom: 1, borderColor: 'divider', px: 0.5, py: 0.25 }}
    >
      <ToolButton label="Bold" active={state.bold} onClick={() => chain().toggleBold().run()} {...tool(0)}>
        <FormatBoldIcon fontSize="small" />
      </ToolButton>
      <ToolButton label="Italic" active={state.italic} onClick={() => chain().toggleItalic().run()} {...tool(1)}>
        <FormatItalicIcon fontSize="small" />
      </ToolButton>
      <ToolButton
        label="Bullet list"
        active={state.bullet}
        onClick={() => chain().toggleBulletList().run()}
        {...tool(2)}
      >
        <FormatListBulletedIcon fontSize="small" />
      </ToolButton>
      <ToolButton
        label="Numbered list"
        active={state.ordered}
        onClick={() => chain().toggleOrderedList().run()}
        {...tool(3)}
      >
        <FormatListNumberedIcon fontSize="small" />
      </ToolButton>
      <ToolButton label="Link" active={state.link} onClick={() => setLinkOpen(true)} {...tool(4)}>
        <LinkIcon fontSize="small" />
      </ToolButton>
      {linkOpen && (
        <LinkDialog
          initial={state.href}
          onApply={(href) => {
            setLinkOpen(false);
            const normalised = normalizeLinkHref(href);
            if (normalised === '') chain().extendMarkRange('link').unsetLink().run();
            else chain().extendMarkRange('link').setLink({ href: normalised }).run();
          }}
          onRemove={() => {
            setLinkOpen(false);
            chain().extendMarkRange('link').unsetLink().run();
          }}
          onClose={() => setLinkOpen(false)}
        />
      )}
    </Stack>
  );
}

function ToolButton({
  label,
  active,
  onClick,
  tabIndex,
  onFocus,
  children,
}: {
  label: string;
  active: boolean;
  onClick: () => void;
  tabIndex: number;
  onFocus: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={label}>
      <IconButton
        size="small"
        aria-label={label}
        aria-pressed={active}
        tabIndex={tabIndex}
        onFocus={onFocus}
        color={active ? 'primary' : 'default'}
        // Keep the editor's selection: the button must not take the focus on mouse down.
        onMouseDown={(e) => e.preventDefault()}
        onClick={onClick}
      >
        {children}
      </IconButton>
    </Tooltip>
  );
}

function LinkDialog({
  initial,
  onApply,
  onRemove,
  onClose,
}: {
  initial: string;
  onApply: (href: string) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const [href, setHref] = useState(initial);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="richtext-link-title">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onApply(href);
        }}
      >
        <DialogTitle id="richtext-link-title">Insert Link</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            size="small"
            label="URL"
            value={href}
            onChange={(e) => setHref(e.target.value)}
            helperText="mailto: and # links stay in the page; other links open in a new tab."
            sx={{ mt: 1 }}
          />
        </DialogContent>
        <DialogActions>
          {initial && <Button onClick={onRemove}>Remove Link</Button>}
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="contained">
            Apply
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
