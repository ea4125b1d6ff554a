import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../core/paths';
import { useSelectionStore } from '../../core/selectionStore';
import { FullScreenMessage } from './FullScreenMessage';
import { BrokenWindowIllustration } from './Illustration';

/**
 * Where Back to Dashboard goes: the dashboard of the portal the preview was of (spec 3 §2:
 * domain/{d}/portal/{p}/branch/{b}/{lang}/dashboard), taken from the query (domain, portal,
 * branch, language) or else from the selection; the domain dashboard or the root without one.
 */
export function backToDashboardPath(
  query: URLSearchParams,
  selection: { domain: string | null; portal: string | null; branch: string | null; language: string | null },
): string {
  const domain = query.get('domain') ?? selection.domain;
  const portal = query.get('portal') ?? selection.portal;
  if (domain && portal) {
    const branch = query.get('branch') ?? selection.branch ?? 'master';
    const language = query.get('language') ?? selection.language ?? undefined;
    return paths.portalScreen(domain, portal, branch, language, 'dashboard');
  }
  if (domain) return paths.domainDashboard(domain);
  return paths.root();
}

/**
 * Route error/live-preview-unstable (spec 1 §2.1, §2.5): the live-preview
 * workspace changed (its build is unstable) and cannot be opened as it is.
 */
export default function LivePreviewUnstableScreen() {
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const branch = useSelectionStore((s) => s.branch);
  const language = useSelectionStore((s) => s.language);
  const target = backToDashboardPath(query, {
    domain: domain ? String(domain.id) : null,
    portal: portal ? String(portal.id) : null,
    branch,
    language,
  });
  return (
    <FullScreenMessage
      fill="area"
      title="Can't open live preview"
      illustration={<BrokenWindowIllustration size={140} />}
      actions={
        <Button variant="contained" onClick={() => void navigate(target)}>
          Back to Dashboard
        </Button>
      }
    >
      <Typography color="text.secondary">
        The live preview build is unstable: its workspace has changed and cannot be opened as it is.
      </Typography>
      <Typography color="text.secondary">If the error persists, please contact the Domain Administrator.</Typography>
    </FullScreenMessage>
  );
}
