import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { FindingsAlert, useFileFindings } from '../readiness';
import { dirtyItems, dirtyKey } from './dirty';
import { DESIGNER_MESSAGES as MSG } from './messages';
import { PropertyPanel, type PropertyPanelProps } from './PropertyPanel';
import { LEFT_PANEL_MIN_WIDTH } from './settings';

/**
 * The designer's left panel: the selected widget's properties, then the errors of items a save
 * refused and the readiness findings of the page's own file.
 */
export function DesignerAside({ pageFile, ...props }: PropertyPanelProps & { pageFile: string }) {
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
