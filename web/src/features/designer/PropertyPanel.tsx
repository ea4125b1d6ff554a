/**
 * The property editor of the widget clicked in the frame: its type's config.probe.json and its
 * instance widgets/database/<id>.json (with the version the edit starts from), read through the
 * asset service. The id comes from the (untrusted) frame: it must be a plain file name, and the
 * type used is the instance file's, not the message's.
 */
import Box from '@mui/material/Box';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { portalKeys, type Id } from '../../api/portal';
import { toApiError } from '../../api/errors';
import { Loading } from '../../ui/Loading';
import { isSafeName, readProbe, readWidgetInstance, widgetInstancePath, type WidgetInstance } from './designerApi';
import { dirtyKey, type DirtyCache } from './dirty';
import { DESIGNER_MESSAGES as MSG } from './messages';
import { buildWidgetForm, valuesFor, withProperty } from './properties';
import { FindingsAlert } from '../readiness';
import { propertyPointer, usePropertyFindings } from './propertyFindings';
import { PropertyFieldView, type FieldContext } from './PropertyFields';
import { FULL_SIZE } from './settings';
import { HistoryButton } from '../valuehistory';

export const designerWidgetKey = (d: Id, p: Id, id: string) =>
  [...portalKeys.workspace(d, p), 'designer-widget', id] as const;
export const designerProbeKey = (d: Id, p: Id, type: string) =>
  [...portalKeys.workspace(d, p), 'designer-probe', type] as const;
/** The widget being edited keeps the version it was read at (a refetch would change the base of the edit). */
export const isDesignerWidgetKey = (key: readonly unknown[]) => key[3] === 'designer-widget';

export interface PropertyPanelProps {
  domain: string;
  portal: string;
  language: string;
  widgetId: string | null;
  /** The media query whose values are edited ('Full Size': the widget's data). */
  query: string;
  dirty: DirtyCache;
  readOnly: boolean;
  onChange: (id: string, instance: WidgetInstance, version: string) => void;
  onTranslationPreview?: (key: string, value: string) => void;
}

export function PropertyPanel(props: PropertyPanelProps) {
  const { widgetId } = props;
  if (!widgetId)
    return (
      <Stack spacing={1}>
        <Typography variant="h6" component="h2">
          {MSG.propertiesTitle}
        </Typography>
        <Typography color="text.secondary">{MSG.noWidget}</Typography>
      </Stack>
    );
  if (!isSafeName(widgetId))
    return (
      <Alert severity="error" role="alert">
        <AlertTitle>{MSG.overlayFailed}</AlertTitle>
        {MSG.unknownError}
      </Alert>
    );
  return <WidgetProperties key={widgetId} {...props} widgetId={widgetId} />;
}

function WidgetProperties({
  domain,
  portal,
  language,
  widgetId,
  query,
  dirty,
  readOnly,
  onChange,
  onTranslationPreview,
}: PropertyPanelProps & { widgetId: string }) {
  const widget = useQuery({
    queryKey: designerWidgetKey(domain, portal, widgetId),
    queryFn: () => readWidgetInstance(domain, portal, widgetId),
    staleTime: Infinity,
    retry: false,
  });
  const type = widget.data?.instance.type ?? '';
  const probe = useQuery({
    queryKey: designerProbeKey(domain, portal, type),
    queryFn: () => readProbe(domain, portal, type),
    enabled: !!type && isSafeName(type),
    retry: false,
  });
  const form = useMemo(() => (probe.data ? buildWidgetForm(probe.data) : null), [probe.data]);
  const entry = dirty[dirtyKey('WIDGET', widgetId)];
  const instance = (entry?.object as WidgetInstance | undefined) ?? widget.data?.instance;
  const values = useMemo(() => (instance ? valuesFor(instance, query) : {}), [instance, query]);
  // The caller's readiness findings of the instance file: at their property, the others listed.
  const findings = usePropertyFindings(domain, portal, widgetId, form?.fields, values, query);
  const ctx = useMemo<FieldContext>(
    () => ({ domain, portal, language, readOnly, onTranslationPreview, findingsAt: findings.at }),
    [domain, portal, language, readOnly, onTranslationPreview, findings.at],
  );

  const heading = (
    <Stack spacing={0.5}>
      <Typography variant="h6" component="h2">
        {form?.name || type || MSG.propertiesTitle}
      </Typography>
      <Typography variant="body2" color="text.secondary" data-testid="designer-widget-id">
        {widgetId}
      </Typography>
    </Stack>
  );
  if (widget.isPending || (type && probe.isPending))
    return (
      <Stack spacing={2}>
        {heading}
        <Loading label="Loading the widget" />
      </Stack>
    );
  const failure = widget.error ?? probe.error;
  if (failure || !widget.data || !form || !instance)
    return (
      <Stack spacing={2}>
        {heading}
        <Alert severity="error" role="alert">
          <AlertTitle>{MSG.overlayFailed}</AlertTitle>
          {failure ? toApiError(failure).errorMessage || MSG.unknownError : MSG.unknownError}
        </Alert>
      </Stack>
    );

  const version = widget.data.version;

  return (
    <Stack
      spacing={2}
      component="form"
      aria-label={`${form.name || type} properties`}
      onSubmit={(e) => e.preventDefault()}
    >
      {heading}
      {query !== FULL_SIZE && <Chip size="small" label={`Media query: ${query}`} />}
      {readOnly && <Alert severity="info">{MSG.readOnly}</Alert>}
      {entry?.error && (
        <Alert severity="error" role="alert">
          {entry.error.errorMessage}
        </Alert>
      )}
      <FindingsAlert findings={findings.rest} />
      {form.fields.map((field) => (
        <Stack key={field.name} direction="row" spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <PropertyFieldView
              pointer={propertyPointer(field.name)}
              field={field}
              value={values[field.name] ?? field.default}
              ctx={ctx}
              onChange={(value) => onChange(widgetId, withProperty(instance, query, field.name, value), version)}
            />
          </Box>
          <HistoryButton
            d={domain}
            p={portal}
            subject={{ kind: 'file', path: widgetInstancePath(widgetId), pointer: propertyPointer(field.name) }}
            what={field.label || field.name}
            canRestore={!readOnly}
          />
        </Stack>
      ))}
    </Stack>
  );
}
