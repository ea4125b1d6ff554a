/**
 * The designer-mode route: domain/{d}/portal/{p}/branch/{branch}/{language}/pages/{pageId}/designer-mode
 * (spec 2 §2 "Routes"). page_read to view (page:w to edit and save); limited portals are edited
 * in the File Explorer and UNIVERSAL portals through the JSON editor, so neither has a designer.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useParams } from 'react-router';
import { paths } from '../../core/paths';
import { isLimitedPortal, isUniversalPortal } from '../../core/menus';
import { PermissionView } from '../../ui/Restricted';
import { useSelectionStore } from '../../core/selectionStore';
import { OpeningPortal } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { usePortalParams } from '../../core/usePortalParams';
import { Designer } from './Designer';
import { DESIGNER_MESSAGES as MSG } from './messages';
import { MASTER_PAGE_ID } from './protocol';

export default function DesignerScreen() {
  const { domain, portal, branch, language, opened } = usePortalParams();
  const { pageId = MASTER_PAGE_ID } = useParams();
  const selected = useSelectionStore((s) => s.portal);
  const limited = isLimitedPortal(selected);
  const universal = isUniversalPortal(selected);
  return (
    <PermissionView permission="page_read">
      {!opened ? (
        <OpeningPortal title={MSG.title} />
      ) : limited || universal ? (
        <PageFrame title={MSG.title}>
          <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
            <Alert severity="info" role="alert">
              {limited ? MSG.limited : MSG.universal}
            </Alert>
            <Button
              variant="contained"
              component={RouterLink}
              to={paths.fileExplorer(domain, portal, branch, language)}
            >
              {MSG.openFileExplorer}
            </Button>
          </Stack>
        </PageFrame>
      ) : (
        <Designer
          key={`${domain}/${portal}/${branch}/${language}`}
          domain={domain}
          portal={portal}
          branch={branch}
          language={language}
          pageId={pageId}
        />
      )}
    </PermissionView>
  );
}
