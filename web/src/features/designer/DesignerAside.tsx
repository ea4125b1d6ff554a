import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { SelectField } from '../../ui/SelectField';
import { FindingsAlert, useFileFindings } from '../readiness';
import { dirtyItems, dirtyKey } from './dirty';
import { DESIGNER_MESSAGES as MSG } from './messages';
import type { RegisteredShortCode } from './protocol';
import { PropertyPanel, type PropertyPanelProps } from './PropertyPanel';
import { LEFT_PANEL_MIN_WIDTH } from './settings';

/** The page's widgets in reading order (top to bottom, then left to right). */
export function widgetOptions(widgets: Record<string, RegisteredShortCode>) {
  return Object.values(widgets)
    .sort((a, b) => a.rect.y - b.rect.y || a.rect.x - b.rect.x || a.id.localeCompare(b.id))
    .map((w) => ({ value: w.id, label: w.type ? `${w.id} (${w.type})` : w.id }));
}

/**
 * The designer's left panel: the choice of the page's widgets (a click in the frame chooses
 * too; this is the keyboard's way), the selected widget's properties, then the errors of items
 * a save refused and the readiness findings of the page's own file.
 */
export function DesignerAside({
  pageFile,
  widgets = {},
  onSelectWidget,
  ...props
}: PropertyPanelProps & {
  pageFile: string;
  /** The widgets the page registered. */
  widgets?: Record<string, RegisteredShortCode>;
  onSelectWidget?: (id: string) => void;
}) {
  const options = widgetOptions(widgets);
  const failed = dirtyItems(props.dirty).filter((d) => d.error);
  const pageFindings = useFileFindings(props.domain, props.portal, pageFile);
  return (
    <Paper
      variant="outlined"
      sx={{
        minWidth: LEFT_PANEL_MIN_WIDTH,
        width: 360,
        flexShrink: 0,
        p: 2,
        overflow: 'auto',
        maxHeight: 'calc(100vh - 200px)',
      }}
      component="aside"
      aria-label={MSG.propertiesTitle}
    >
      {onSelectWidget && options.length > 0 && (
        <SelectField
          label={MSG.widgetSelector}
          value={props.widgetId ?? ''}
          onChange={onSelectWidget}
          options={options}
          sx={{ mb: 2 }}
        />
      )}
      <PropertyPanel {...props} />
      {failed.length > 0 && (
        <Stack spacing={1} sx={{ mt: 2 }}>
          {failed.map((d) => (
            <Alert key={dirtyKey(d.type, d.id)} severity="error" data-testid="designer-dirty-error">
              {d.id}: {d.error?.errorMessage}
            </Alert>
          ))}
        </Stack>
      )}
      {pageFindings.length > 0 && (
        <Stack sx={{ mt: 2, '& .MuiAlert-root': { py: 0 }, fontSize: 14 }}>
          <FindingsAlert findings={pageFindings} subject={MSG.pageReadiness} />
        </Stack>
      )}
    </Paper>
  );
}
