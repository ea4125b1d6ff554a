import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Form from '@rjsf/mui';
import { getDefaultFormState, type RJSFSchema, type UiSchema } from '@rjsf/utils';
import { useMemo, useRef, useState } from 'react';
import type { Id } from '../../api/portal';
import type { Finding } from '../../api/readiness';
import { toasts } from '../../core/toastService';
import { PendingButton } from '../../ui/ConfirmDialog';
import { ArrayTemplate } from './ArrayTemplate';
import type { FileText } from './fileApi';
import { FormErrorList } from './FormErrorList';
import { HistoryFieldTemplate, HistoryItemButtons, type HistoryContext } from './historyTemplates';
import { FieldErrorsWithFindings, useFocusPointer, useFormFindings, type FindingsFormContext } from './formFindings';
import { applyEdits, detectLayout, formatJson, parseJsonText } from './jsonText';
import { jsonValidator, transformErrorsFor, translateString } from './jsonValidation';
import { LinkTextWidget, type JsonFormContext } from './LinkTextWidget';
import { EDITOR_MESSAGES } from './messages';
import { MergeDialog } from './MergeDialog';
import { FindingsAlert } from '../readiness';
import { useFileSave } from './useFileSave';
import type { FileBase } from './useMergingSave';
import { useSaveShortcut } from '../../core/shortcuts';

export interface JsonFormProps extends JsonFormContext {
  domain: Id;
  portal: Id;
  path: string;
  schema: RJSFSchema;
  /** The file as read (its text gives the layout kept on save). */
  file: FileText;
  /** The parsed data (undefined: empty or unparseable). */
  data: unknown;
  readOnly?: boolean;
  onClose: () => void;
  onSaved?: () => void;
  /** The author's first change (presence: 'editing'). */
  onEdit?: () => void;
  /** The caller's readiness findings in this file: at their fields, the others in a summary. */
  findings?: readonly Finding[];
  /** The field to bring into view and focus (the Readiness screen's "Open": …&pointer=…). */
  pointer?: string;
}

// Our own Save and Cancel: rjsf's submit button is not rendered.
const UI_SCHEMA: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
const WIDGETS = { TextWidget: LinkTextWidget };
const TEMPLATES = {
  ErrorListTemplate: FormErrorList,
  ArrayFieldTemplate: ArrayTemplate,
  FieldErrorTemplate: FieldErrorsWithFindings,
  FieldTemplate: HistoryFieldTemplate,
  ArrayFieldItemButtonsTemplate: HistoryItemButtons,
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What rjsf shows for `data` (defaults filled in): an untouched form compares equal to it. */
function withDefaults(schema: RJSFSchema, data: unknown): unknown {
  try {
    return getDefaultFormState(jsonValidator, schema, data);
  } catch {
    return data;
  }
}

/** The form state of a file's text (empty or unparseable text: no data). */
function formStateOf(schema: RJSFSchema, text: string): unknown {
  const parsed = parseJsonText(text);
  return withDefaults(schema, parsed.ok ? parsed.data : undefined);
}

/** The JSON editor's form (spec 2 §4 "JSON editor"): Save is for a changed, valid form. */
export function JsonForm({
  domain,
  portal,
  path,
  schema,
  file,
  data,
  readOnly,
  onClose,
  onSaved,
  onEdit,
  pickAsset,
  findings,
  pointer,
}: JsonFormProps) {
  // The file the edit is based on (its text is the merge's base after a refused save).
  const [base, setBase] = useState<FileText>(file);
  const [layout, setLayout] = useState(() => detectLayout(file.data));
  const [baseline, setBaseline] = useState(() => withDefaults(schema, data));
  const [formData, setFormData] = useState<unknown>(baseline);
  const files = useFileSave(domain, portal, path, load);

  const dirty = !same(formData, baseline);
  const transformErrors = useMemo(() => transformErrorsFor(schema), [schema]);
  const errors = useMemo(
    () => jsonValidator.validateFormData(formData, schema, undefined, transformErrors).errors,
    [formData, schema, transformErrors],
  );
  const errorCount = errors.length;
  const invalid = errorCount > 0;
  const formRef = useRef<HTMLDivElement>(null);

  /**
   * Takes the author to the first invalid field (a long form's banner is far off): the first
   * error's field by its rjsf id (root_<path>), else the first field marked invalid.
   */
  function showFirstError() {
    const root = formRef.current;
    if (!root) return;
    const property = errors[0]?.property ?? '';
    const id = ['root', ...property.split('.').filter(Boolean)].join('_');
    const field =
      (property ? root.querySelector<HTMLElement>(`[id="${CSS.escape(id)}"]`) : null) ??
      root.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!field) return;
    field.scrollIntoView({ block: 'center' });
    field.focus();
  }

  const placed = useFormFindings(findings, schema, formData);
  // A value's restore (its History) is a workspace change: the editor reads the file again
  // as after any other (useWorkspaceReload).
  const formContext = useMemo<FindingsFormContext & { history: HistoryContext }>(
    () => ({
      pickAsset,
      domain,
      portal,
      findingsAt: placed.at,
      history: { domain, portal, path, canRestore: !readOnly },
    }),
    [pickAsset, domain, portal, placed.at, path, readOnly],
  );
  useFocusPointer(formRef, pointer);

  /** Shows `text` (a merge, or the file reloaded) based on `next`; the file's layout is kept. */
  function load(text: string, next: FileBase) {
    setBase({ data: next.text, version: next.version });
    setLayout(detectLayout(next.text));
    setBaseline(formStateOf(schema, next.text));
    setFormData(formStateOf(schema, text));
  }

  useSaveShortcut(() => void save(), !readOnly && dirty && !invalid && !files.saving && !files.conflict);

  async function save() {
    const wait = toasts.info(EDITOR_MESSAGES.pleaseWait);
    const text = formatJson(formData, layout);
    // The merge gets only what the author changed (not the defaults the form filled in).
    const original = parseJsonText(base.data);
    const mine = original.ok ? formatJson(applyEdits(original.data, baseline, formData), layout) : text;
    const saved = await files.save(text, { text: base.data, version: base.version }, mine);
    if (wait) toasts.dismiss(wait.id);
    if (!saved) return;
    if (saved.merged) load(saved.text, saved.base);
    else {
      setBase({ data: saved.base.text, version: saved.base.version });
      setBaseline(formData);
      toasts.success(EDITOR_MESSAGES.saved);
    }
    onSaved?.();
  }

  return (
    <Stack spacing={2}>
      {!readOnly && <Alert severity="info">{EDITOR_MESSAGES.localChangesNote}</Alert>}
      <FindingsAlert findings={placed.rest} />
      <Box ref={formRef}>
        <Form
          schema={schema}
          uiSchema={UI_SCHEMA}
          validator={jsonValidator}
          formData={formData}
          onChange={(event) => {
            setFormData(event.formData);
            if (!same(event.formData, baseline)) onEdit?.();
          }}
          liveValidate="onChange"
          showErrorList="top"
          noHtml5Validate
          transformErrors={transformErrors}
          translateString={translateString}
          widgets={WIDGETS}
          templates={TEMPLATES}
          formContext={formContext}
          readonly={readOnly}
        />
      </Box>
      {/*
        Save and Cancel stay in view on a long form (issue 22): fixed at the bottom right of the
        window (the shell's main area is not the scroll container, so sticky would not hold);
        toasts sit bottom left. The spacer keeps the form's end clear of the bar.
      */}
      <Box aria-hidden sx={{ height: 56 }} />
      <Stack
        direction="row"
        spacing={2}
        role="group"
        aria-label={EDITOR_MESSAGES.formActions}
        sx={{
          justifyContent: 'flex-end',
          alignItems: 'center',
          position: 'fixed',
          bottom: 16,
          right: 24,
          zIndex: (theme) => theme.zIndex.appBar,
          px: 2,
          py: 1,
          bgcolor: 'background.paper',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          boxShadow: 3,
        }}
      >
        {!readOnly && invalid && <Button onClick={showFirstError}>{EDITOR_MESSAGES.showFirstError(errorCount)}</Button>}
        <Button onClick={onClose} disabled={files.saving}>
          Cancel
        </Button>
        {!readOnly && (
          <PendingButton pending={files.saving} disabled={!dirty || invalid} onClick={() => void save()}>
            Save
          </PendingButton>
        )}
      </Stack>
      <MergeDialog {...files.dialog} />
    </Stack>
  );
}
