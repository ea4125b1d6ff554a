import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Form from '@rjsf/mui';
import { getDefaultFormState, type RJSFSchema, type UiSchema } from '@rjsf/utils';
import { useMemo, useState } from 'react';
import type { Id } from '../../api/portal';
import { toasts } from '../../app/toasts/toastService';
import { PendingButton } from '../../ui/ConfirmDialog';
import { ArrayTemplate } from './ArrayTemplate';
import { ConflictDialog } from './ConflictDialog';
import type { FileText } from './fileApi';
import { FormErrorList } from './FormErrorList';
import { detectLayout, formatJson, parseJsonText } from './jsonText';
import { jsonValidator, transformErrors } from './jsonValidation';
import { LinkTextWidget, type JsonFormContext } from './LinkTextWidget';
import { EDITOR_MESSAGES } from './messages';
import { useFileSave } from './useFileSave';

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
}

// Our own Save and Cancel: rjsf's submit button is not rendered.
const UI_SCHEMA: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
const WIDGETS = { TextWidget: LinkTextWidget };
const TEMPLATES = { ErrorListTemplate: FormErrorList, ArrayFieldTemplate: ArrayTemplate };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What rjsf shows for `data` (defaults filled in): an untouched form compares equal to it. */
function withDefaults(schema: RJSFSchema, data: unknown): unknown {
  try {
    return getDefaultFormState(jsonValidator, schema, data);
  } catch {
    return data;
  }
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
  pickAsset,
}: JsonFormProps) {
  const [version, setVersion] = useState(file.version);
  const [layout, setLayout] = useState(() => detectLayout(file.data));
  const [baseline, setBaseline] = useState(() => withDefaults(schema, data));
  const [formData, setFormData] = useState<unknown>(baseline);
  const files = useFileSave(domain, portal, path);

  const dirty = !same(formData, baseline);
  const invalid = useMemo(
    () => jsonValidator.validateFormData(formData, schema, undefined, transformErrors).errors.length > 0,
    [formData, schema],
  );
  const formContext = useMemo<JsonFormContext>(() => ({ pickAsset, domain, portal }), [pickAsset, domain, portal]);

  async function save() {
    const wait = toasts.info(EDITOR_MESSAGES.pleaseWait);
    const saved = await files.save(formatJson(formData, layout), version);
    if (wait) toasts.dismiss(wait.id);
    if (!saved) return;
    setVersion(saved.version);
    setBaseline(formData);
    toasts.success(EDITOR_MESSAGES.saved);
    onSaved?.();
  }

  function applyFresh(fresh: FileText, keepEdit: boolean) {
    const parsed = parseJsonText(fresh.data);
    const next = withDefaults(schema, parsed.ok ? parsed.data : undefined);
    setVersion(fresh.version);
    setLayout(detectLayout(fresh.data));
    setBaseline(next);
    if (!keepEdit) setFormData(next);
  }

  return (
    <Stack spacing={2}>
      {!readOnly && <Alert severity="info">{EDITOR_MESSAGES.localChangesNote}</Alert>}
      <Form
        schema={schema}
        uiSchema={UI_SCHEMA}
        validator={jsonValidator}
        formData={formData}
        onChange={(event) => setFormData(event.formData)}
        liveValidate="onChange"
        showErrorList="top"
        noHtml5Validate
        transformErrors={transformErrors}
        widgets={WIDGETS}
        templates={TEMPLATES}
        formContext={formContext}
        readonly={readOnly}
      />
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={onClose} disabled={files.saving}>
          Cancel
        </Button>
        {!readOnly && (
          <PendingButton pending={files.saving} disabled={!dirty || invalid} onClick={() => void save()}>
            Save
          </PendingButton>
        )}
      </Stack>
      <ConflictDialog
        open={files.conflict}
        busy={files.reloading}
        onCancel={files.dismissConflict}
        onReapply={() => void files.reload((fresh) => applyFresh(fresh, true))}
        onDiscard={() => void files.reload((fresh) => applyFresh(fresh, false))}
      />
    </Stack>
  );
}
