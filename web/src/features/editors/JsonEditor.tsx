import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { RJSFSchema } from '@rjsf/utils';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import type { Id } from '../../api/portal';
import { toasts } from '../../core/toastService';
import { LoadError, Loading } from '../../ui/Loading';
import { PresenceBar, usePresence } from '../presence';
import { useFileFindings } from '../readiness';
import { editorKeys, readSchemaText, useFileText, useWorkspaceReload } from './fileApi';
import { parseJsonText } from './jsonText';
import { SourceEditor } from './SourceEditor';
import type { JsonFormContext } from './LinkTextWidget';
import { EDITOR_MESSAGES } from './messages';
import { normalizeSchema } from './normalizeSchema';
import { BlameButton } from '../valuehistory';

export interface JsonEditorProps extends JsonFormContext {
  domain: Id;
  portal: Id;
  /** The JSON file's asset path; its schema is '<path>.schema'. */
  path: string;
  readOnly?: boolean;
  onClose: () => void;
  onSaved?: () => void;
  /** A field to bring into view and focus (JSON pointer), or, in a file without schema, a line. */
  pointer?: string;
  line?: number;
}

// The form library and its validator are big: their own chunk, fetched when an editor opens.
const JsonForm = lazy(() => import('./JsonForm').then((m) => ({ default: m.JsonForm })));

/**
 * The JSON editor (spec 2 §2, §4): a form built from the file's companion schema. A file with
 * no schema (a real repository's locale or configuration file) opens in the source editor,
 * which refuses to save text that is not JSON (when the server says its saves are strict JSON) and
 * says on which line it breaks.
 */
export function JsonEditor(props: JsonEditorProps) {
  const { domain, portal, path } = props;
  const findings = useFileFindings(domain, portal, path);
  const schemaText = useQuery({
    queryKey: editorKeys.schema(domain, portal, path),
    queryFn: () => readSchemaText(domain, portal, path),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
  if (schemaText.data === null) {
    return (
      <SourceEditor
        domain={domain}
        portal={portal}
        path={path}
        canWrite={!props.readOnly}
        onClose={props.onClose}
        onSaved={props.onSaved}
        // Without a form a pointer goes to its finding's line (widget data, locale files).
        line={props.line ?? findings.find((f) => props.pointer && f.pointer === props.pointer && f.line)?.line}
      />
    );
  }
  return <JsonSchemaEditor {...props} schemaText={schemaText} />;
}

function JsonSchemaEditor({ schemaText, ...props }: JsonEditorProps & { schemaText: UseQueryResult<string | null> }) {
  const { domain, portal, path, onClose } = props;
  const file = useFileText(domain, portal, path);
  const presence = usePresence(domain, portal, path);
  const findings = useFileFindings(domain, portal, path);
  const schema = useMemo(() => {
    if (typeof schemaText.data !== 'string') return null;
    const parsed = parseJsonText(schemaText.data);
    return parsed.ok && parsed.data ? (normalizeSchema(parsed.data) as RJSFSchema) : undefined;
  }, [schemaText.data]);
  const parsed = useMemo(() => (file.data ? parseJsonText(file.data.data) : null), [file.data]);
  // After Revert All, Revert To, Reset or Reload Now the file is read again: an untouched form
  // shows it, an edited one is told and offered the reload (issue 22 item 6).
  const edited = useRef(false);
  const refresh = useWorkspaceReload(
    file,
    () => edited.current,
    () => null,
  );

  // An unparseable file opens with an empty form: saving it writes valid JSON again. Only once
  // its schema is read: a file without one (tsconfig.json with comments) opens as source.
  useEffect(() => {
    if (schema && parsed && !parsed.ok) toasts.warning(EDITOR_MESSAGES.wrongJson);
  }, [schema, parsed]);

  const error = file.error ?? schemaText.error;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="h5" component="h2">
          {EDITOR_MESSAGES.editingTitle(path)}
        </Typography>
        <BlameButton d={domain} p={portal} of={{ kind: 'file', path }} name={path} />
      </Stack>
      <PresenceBar domain={domain} portal={portal} path={path} />
      {(file.isPending || schemaText.isPending) && !error && <Loading label="Loading the file" />}
      {error && (
        <LoadError
          title={EDITOR_MESSAGES.loadFailed}
          error={error}
          onRetry={() => void Promise.all([file.refetch(), schemaText.refetch()])}
        />
      )}
      {schema === undefined && <Alert severity="error">{EDITOR_MESSAGES.badSchema}</Alert>}
      {schema === undefined && (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>Cancel</Button>
        </Stack>
      )}
      {refresh.changed && (
        <Alert
          severity="warning"
          role="alert"
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                edited.current = false;
                refresh.reload();
              }}
            >
              {EDITOR_MESSAGES.reload}
            </Button>
          }
        >
          {EDITOR_MESSAGES.workspaceChanged}
        </Alert>
      )}
      {file.data && schema && parsed && (
        <Suspense fallback={<Loading label="Loading the editor" />}>
          <JsonForm
            key={refresh.formKey}
            {...props}
            onSaved={() => {
              edited.current = false;
              props.onSaved?.();
            }}
            onEdit={() => {
              edited.current = true;
              presence.markEditing();
            }}
            schema={schema}
            file={file.data}
            data={parsed.ok ? parsed.data : undefined}
            findings={findings}
          />
        </Suspense>
      )}
    </Stack>
  );
}
