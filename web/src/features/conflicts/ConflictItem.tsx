import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useId, useState } from 'react';
import type { ChoiceTake, Conflict, ConflictFile } from '../../api/conflicts';
import { CONFLICT_MESSAGES as MSG } from './messages';
import { choiceOptions, editError, editStart, isJsonKind, prettyJson, type ConflictPick } from './model';

// @rjsf is big: its own chunk, loaded when a file with a schema is shown.
const SchemaValue = lazy(() => import('./SchemaValue'));

const CHOICE_LABEL: Record<ChoiceTake, string> = {
  mine: MSG.keepMine,
  theirs: MSG.keepTheirs,
  base: MSG.useBase,
  value: MSG.edit,
};

export interface ConflictItemProps {
  file: ConflictFile;
  conflict: Conflict;
  pick: ConflictPick | undefined;
  onPick: (pick: ConflictPick) => void;
  /** The file's schema text (JSON files with a schema), once loaded. */
  schemaText?: string | null;
}

function TextValue({ text, json }: { text: string | null; json: boolean }) {
  if (text === null) return <Typography color="text.secondary">{MSG.absent}</Typography>;
  return (
    <Box
      component="pre"
      sx={{ m: 0, fontFamily: 'monospace', fontSize: 13, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
    >
      {json ? prettyJson(text) : text}
    </Box>
  );
}

/** One side's value: in the field's widget when the schema covers it, as text otherwise. */
function SideValue({
  title,
  text,
  kind,
  conflictId,
  schemaText,
}: {
  title: string;
  text: string | null;
  kind: ConflictFile['kind'];
  conflictId: string;
  schemaText?: string | null;
}) {
  const json = isJsonKind(kind);
  const plain = <TextValue text={text} json={json} />;
  return (
    <Paper variant="outlined" sx={{ p: 1.5, flex: 1, minWidth: 0 }}>
      <Typography variant="subtitle2" component="h4" gutterBottom>
        {title}
      </Typography>
      {json && schemaText && text !== null ? (
        <Suspense fallback={plain}>
          <SchemaValue schemaText={schemaText} conflictId={conflictId} value={text} label={title} fallback={plain} />
        </Suspense>
      ) : (
        plain
      )}
    </Paper>
  );
}

/**
 * One conflict: Theirs and Mine side by side (Base on request), and the choice: Keep mine,
 * Keep theirs, Use base or Edit (a text field prefilled with mine; JSON must parse; the field's
 * own widget when the file has a schema). A binary file offers mine or theirs only.
 */
export function ConflictItem({ file, conflict, pick, onPick, schemaText }: ConflictItemProps) {
  const [showBase, setShowBase] = useState(false);
  const [draft, setDraft] = useState(() => editStart(file.kind, conflict));
  const editId = useId();
  const options = choiceOptions(file);
  const binary = options.length === 2;
  const label = MSG.conflictRegion(file.path, conflict.path);
  const error = pick?.take === 'value' ? editError(file.kind, draft) : null;
  const json = isJsonKind(file.kind);

  const setValue = (value: string) => {
    setDraft(value);
    onPick({ take: 'value', value });
  };

  return (
    <Stack component="section" aria-label={label} spacing={1.5} sx={{ py: 1.5 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontFamily: 'monospace' }}>
          {conflict.path}
        </Typography>
        {!binary && (
          <FormControlLabel
            control={<Switch checked={showBase} onChange={(e) => setShowBase(e.target.checked)} />}
            label={MSG.showBase}
          />
        )}
      </Stack>
      {conflict.reason && <Typography color="text.secondary">{conflict.reason}</Typography>}
      {binary ? (
        <Typography color="text.secondary">{MSG.binaryNote}</Typography>
      ) : (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          {showBase && (
            <SideValue
              title={MSG.base}
              text={conflict.base}
              kind={file.kind}
              conflictId={conflict.id}
              schemaText={schemaText}
            />
          )}
          <SideValue
            title={MSG.theirs}
            text={conflict.theirs}
            kind={file.kind}
            conflictId={conflict.id}
            schemaText={schemaText}
          />
          <SideValue
            title={MSG.mine}
            text={conflict.mine}
            kind={file.kind}
            conflictId={conflict.id}
            schemaText={schemaText}
          />
        </Stack>
      )}
      <RadioGroup
        row
        aria-label={MSG.choiceGroup(conflict.path)}
        value={pick?.take ?? ''}
        onChange={(e) => {
          const take = e.target.value as ChoiceTake;
          onPick(take === 'value' ? { take, value: draft } : { take });
        }}
      >
        {options.map((take) => (
          <FormControlLabel key={take} value={take} control={<Radio />} label={CHOICE_LABEL[take]} />
        ))}
      </RadioGroup>
      {pick?.take === 'value' &&
        (json && schemaText ? (
          <Suspense fallback={null}>
            <SchemaValue
              schemaText={schemaText}
              conflictId={conflict.id}
              value={draft}
              onChange={setValue}
              label={MSG.editLabel}
              fallback={<EditField id={editId} draft={draft} error={error} json={json} onChange={setValue} />}
            />
          </Suspense>
        ) : (
          <EditField id={editId} draft={draft} error={error} json={json} onChange={setValue} />
        ))}
    </Stack>
  );
}

function EditField({
  id,
  draft,
  error,
  json,
  onChange,
}: {
  id: string;
  draft: string;
  error: string | null;
  json: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      id={id}
      label={MSG.editLabel}
      multiline
      minRows={3}
      value={draft}
      onChange={(e) => onChange(e.target.value)}
      error={!!error}
      helperText={error ?? (json ? MSG.editJsonHelp : MSG.editTextHelp)}
      slotProps={{ htmlInput: { sx: { fontFamily: 'monospace', fontSize: 13 } } }}
    />
  );
}
