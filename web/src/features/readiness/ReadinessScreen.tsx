/**
 * The Readiness screen (issue 29; docs/readiness.md "The Readiness screen"):
 * …/branch/{branch}/{language}/readiness. The caller's workspace checked: counts per severity,
 * the findings grouped by rule or by file and filtered by severity and language, each with Open
 * (findingLink) and Ignore (a reason; asset:w); the ignored findings with Undo; other authors'
 * findings in their uncommitted changes; the settings (portal:w). READINESS_CHANGED keeps the
 * report and the others' findings live (live.ts).
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import type { Finding, ReadinessReport } from '../../api/readiness';
import { PermissionView } from '../../ui/Restricted';
import { usePermission } from '../../core/usePermission';
import { usePortalParams } from '../../core/usePortalParams';
import { formatDateTime } from '../../lib/format';
import { LoadError, Loading, OPENING_PORTAL } from '../../ui/Loading';
import { PageFrame } from '../../ui/PageFrame';
import { StatCard, StatRow } from '../../ui/StatCard';
import { FINDINGS_HEADING, FindingsView } from './FindingsView';
import { IgnoreDialog } from './IgnoreDialog';
import { IgnoredSection } from './IgnoredSection';
import { READINESS_MESSAGES as MSG } from './messages';
import { OthersSection } from './OthersSection';
import { useLinkContext } from './queries';
import { SettingsDialog } from './SettingsDialog';
import { useReadinessActions } from './useReadinessActions';
import { useWorkspaceReadiness } from './useReadiness';

export default function ReadinessScreen() {
  const { domain, portal, branch, language, opened } = usePortalParams();
  const canSettings = usePermission('portal:w');
  const [settings, setSettings] = useState(false);
  const report = useWorkspaceReadiness(domain, portal, opened);
  const actions = useReadinessActions(domain, portal);
  return (
    <PermissionView permission="asset:r">
      <PageFrame
        title={MSG.title}
        intro={MSG.intro}
        actions={
          opened && (
            <>
              <Button variant="outlined" disabled={report.isFetching} onClick={() => void report.refetch()}>
                Check again
              </Button>
              {canSettings && (
                <Button variant="outlined" onClick={() => setSettings(true)}>
                  {MSG.settings}
                </Button>
              )}
            </>
          )
        }
      >
        {!opened ? (
          <Loading label={OPENING_PORTAL} />
        ) : report.data ? (
          <Report
            key={`${domain}/${portal}/${branch}`}
            report={report.data}
            refreshing={report.isFetching}
            domain={domain}
            portal={portal}
            branch={branch}
            language={language}
            actions={actions}
          />
        ) : report.error ? (
          <LoadError title={MSG.loadFailed} error={report.error} onRetry={() => void report.refetch()} />
        ) : (
          <Checking />
        )}
      </PageFrame>
      {canSettings && opened && (
        <SettingsDialog
          domain={domain}
          portal={portal}
          open={settings}
          onSave={actions.saveSettings}
          onClose={() => setSettings(false)}
        />
      )}
    </PermissionView>
  );
}

/** A long run's progress: the report of a big portal can take seconds. */
function Checking() {
  return (
    <Box sx={{ maxWidth: 480 }}>
      <Typography id="readiness-checking" sx={{ mb: 1 }}>
        {MSG.checking}
      </Typography>
      <LinearProgress aria-labelledby="readiness-checking" />
    </Box>
  );
}

function Report({
  report,
  refreshing,
  domain,
  portal,
  branch,
  language,
  actions,
}: {
  report: ReadinessReport;
  refreshing: boolean;
  domain: string;
  portal: string;
  branch: string;
  language: string;
  actions: ReturnType<typeof useReadinessActions>;
}) {
  const canWrite = usePermission('asset:w');
  const ctx = useLinkContext(domain, portal, branch, language);
  const [ignoring, setIgnoring] = useState<Finding | null>(null);
  // An ignored finding's row (which opened the dialog) is gone: focus goes to the findings'
  // heading instead of the page body once the dialog has given it back.
  const ignored = useRef(false);
  const { summary } = report;
  return (
    <Stack spacing={3}>
      <Stack spacing={1}>
        <StatRow>
          <StatCard label="Errors" value={summary.errors} />
          <StatCard label="Warnings" value={summary.warnings} />
          <StatCard label="Infos" value={summary.infos} />
          <StatCard label="Ignored" value={summary.ignored} />
        </StatRow>
        <Typography variant="body2" color="text.secondary">
          {MSG.checkedAt(formatDateTime(report.checkedAt), report.durationMs)}
        </Typography>
        {refreshing && <LinearProgress aria-label={MSG.checking} />}
      </Stack>
      <FindingsView findings={report.findings} ctx={ctx} onIgnore={canWrite ? setIgnoring : undefined} />
      <IgnoredSection
        ignored={report.ignored ?? []}
        onUndo={canWrite ? (f) => actions.unignore.run(f) : undefined}
        pendingId={actions.unignore.variables?.id}
      />
      <OthersSection domain={domain} portal={portal} ctx={ctx} />
      <IgnoreDialog
        finding={ignoring}
        onIgnore={(finding, reason) =>
          actions.ignore.submit({ finding, reason }).then((r) => {
            ignored.current = true;
            return r;
          })
        }
        onClose={() => {
          setIgnoring(null);
          if (!ignored.current) return;
          ignored.current = false;
          window.setTimeout(() => document.getElementById(FINDINGS_HEADING)?.focus(), 0);
        }}
      />
    </Stack>
  );
}
