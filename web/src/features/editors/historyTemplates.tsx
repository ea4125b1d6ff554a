/**
 * The History action of the JSON editor (issue 33): beside every field that holds a value and
 * on every array item, opening that value's history (features/valuehistory). The form context
 * says which file, and whether a restore is offered.
 */
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { getDefaultRegistry } from '@rjsf/core';
import { Templates } from '@rjsf/mui';
import type { ArrayFieldItemButtonsTemplateProps, FieldTemplateProps } from '@rjsf/utils';
import type { Id } from '../../api/portal';
import { pointerOf } from '../readiness';
import { HistoryButton } from '../valuehistory';

/** What the form's History actions need. */
export interface HistoryContext {
  domain: Id;
  portal: Id;
  path: string;
  canRestore: boolean;
  onRestored?: () => void;
}

interface WithHistory {
  history?: HistoryContext;
}

const DefaultField = Templates.FieldTemplate!;
const DefaultItemButtons = getDefaultRegistry().templates.ArrayFieldItemButtonsTemplate;

/** The field's name for people: its path ("menu › 2 › title"). */
const what = (path: readonly (string | number)[]) =>
  path.map((s) => (typeof s === 'number' ? String(s + 1) : s)).join(' › ');

function Button({ h, path }: { h: HistoryContext; path: readonly (string | number)[] }) {
  return (
    <HistoryButton
      d={h.domain}
      p={h.portal}
      subject={{ kind: 'file', path: h.path, pointer: pointerOf(path) }}
      what={what(path)}
      canRestore={h.canRestore}
      onRestored={h.onRestored}
    />
  );
}

/** A field: with its History action when it holds a value (not an object or an array). */
export function HistoryFieldTemplate(props: FieldTemplateProps) {
  const h = (props.registry.formContext as WithHistory | undefined)?.history;
  const type = props.schema.type;
  const leaf = type !== 'object' && type !== 'array' && props.fieldPathId.path.length > 0;
  if (!h || !leaf || props.hidden) return <DefaultField {...props} />;
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <DefaultField {...props} />
      </Box>
      <Box sx={{ pt: 1 }}>
        <Button h={h} path={props.fieldPathId.path} />
      </Box>
    </Stack>
  );
}

/** An array item's buttons (move, copy, remove) with its History action. */
export function HistoryItemButtons(props: ArrayFieldItemButtonsTemplateProps) {
  const h = (props.registry.formContext as WithHistory | undefined)?.history;
  return (
    <>
      {h && <Button h={h} path={props.fieldPathId.path} />}
      <DefaultItemButtons {...props} />
    </>
  );
}
