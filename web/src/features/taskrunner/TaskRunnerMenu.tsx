/**
 * The header's task-runner menu (spec 3 §2 "Header bar", "Task runner panel"; §4 "Task runner";
 * §8): an icon button whose icon and colour follow the phase (cross-out when inactive, then info,
 * spinning cog, check, cross, warning), hidden without a portal, for limited portals and without
 * task_read. It opens a 634 px panel with the phase message, 'Last run was …' and — outside
 * INACTIVE, VALIDATING and RUNNING — Run Tasks (task_write), Last Run Output and Lint warnings.
 *
 * The component also keeps the runner state of the open portal (useTaskRunnerSync), so it is
 * always mounted in the header even when the button is hidden.
 *
 * DOM hooks: button 'Task runner' (data-phase), dialog 'Task runner', buttons 'Run Tasks',
 * 'Last Run Output', 'Lint warnings'; dialogs 'Last Run Output' (Close, Copy) and 'Lint warnings'.
 */
import BlockIcon from '@mui/icons-material/Block';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import SettingsIcon from '@mui/icons-material/Settings';
import WarningIcon from '@mui/icons-material/Warning';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { keyframes } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type ReactElement } from 'react';
import { toApiError } from '../../api/errors';
import {
  isTaskRunnerBusy,
  taskRunnerApi,
  taskRunnerKeys,
  type LintWarning,
  type TaskRunnerPhase,
  type TaskRunnerState,
} from '../../api/taskRunner';
import { usePermission } from '../../app/permissions/usePermission';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, showToast, toasts } from '../../app/toasts/toastService';
import { formatDateTime } from '../../lib/format';
import { Loading } from '../../ui/Loading';
import { showsActions, stateMessage, TASK_RUNNER_MESSAGES as MSG, TASK_RUNNER_PANEL_WIDTH } from './messages';
import { applyAnsweredTaskRunnerState, useTaskRunnerStore } from './taskRunnerStore';
import { useTaskRunnerSync, useTaskRunnerTarget } from './useTaskRunnerSync';

const spin = keyframes`from { transform: rotate(0deg); } to { transform: rotate(360deg); }`;

type IconColor = 'inherit' | 'info' | 'success' | 'error' | 'warning' | 'disabled';

/** The header icon and its colour of a state (null: not loaded yet). */
export function phaseIcon(state: TaskRunnerState | null): { icon: ReactElement; color: IconColor; name: string } {
  const phase: TaskRunnerPhase | null = state?.phase ?? null;
  if (state?.error && !isTaskRunnerBusy(phase))
    return { icon: <CancelIcon fontSize="small" />, color: 'error', name: 'error' };
  switch (phase) {
    case 'INACTIVE':
      return { icon: <BlockIcon fontSize="small" />, color: 'disabled', name: 'cross-out' };
    case 'UNINITIATED':
      return { icon: <InfoOutlinedIcon fontSize="small" />, color: 'info', name: 'info' };
    case 'VALIDATING':
    case 'RUNNING':
      return {
        icon: <SettingsIcon fontSize="small" sx={{ animation: `${spin} 1.2s linear infinite` }} />,
        color: 'inherit',
        name: 'spinner',
      };
    case 'STABLE':
      return { icon: <CheckCircleIcon fontSize="small" />, color: 'success', name: 'check' };
    case 'UNSTABLE':
      return { icon: <CancelIcon fontSize="small" />, color: 'error', name: 'cross' };
    case 'STALE':
      return { icon: <WarningIcon fontSize="small" />, color: 'warning', name: 'warning' };
    default:
      return { icon: <InfoOutlinedIcon fontSize="small" />, color: 'inherit', name: 'none' };
  }
}

const iconColor = (color: IconColor): string =>
  color === 'inherit' ? 'inherit' : color === 'disabled' ? 'action.disabled' : `${color}.main`;

export function TaskRunnerMenu() {
  useTaskRunnerSync();
  const target = useTaskRunnerTarget();
  if (!target) return null;
  return <TaskRunnerButton key={target.key} domainId={target.domainId} portalId={target.portalId} />;
}

export default TaskRunnerMenu;

function TaskRunnerButton({ domainId, portalId }: { domainId: string; portalId: string }) {
  const state = useTaskRunnerStore((s) => s.state);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const panelId = useId();
  const { icon, color, name } = phaseIcon(state);
  const busy = isTaskRunnerBusy(state?.phase);
  return (
    <>
      <Tooltip title={MSG.button}>
        <IconButton
          color="inherit"
          aria-label={MSG.button}
          aria-haspopup="dialog"
          aria-expanded={anchor ? 'true' : undefined}
          aria-controls={anchor ? panelId : undefined}
          aria-busy={busy || undefined}
          data-phase={state?.phase ?? 'NONE'}
          data-icon={name}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <Box component="span" sx={{ display: 'inline-flex', color: iconColor(color) }}>
            {icon}
          </Box>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            id: panelId,
            role: 'dialog',
            'aria-label': MSG.panel,
            sx: { width: TASK_RUNNER_PANEL_WIDTH, maxWidth: '100vw', p: 2 },
          } as object,
        }}
      >
        <TaskRunnerPanel domainId={domainId} portalId={portalId} state={state} />
      </Popover>
    </>
  );
}

export function TaskRunnerPanel({
  domainId,
  portalId,
  state,
}: {
  domainId: string;
  portalId: string;
  state: TaskRunnerState | null;
}) {
  const canWrite = usePermission('task_write');
  const [running, setRunning] = useState(false);
  const [outputOpen, setOutputOpen] = useState(false);
  const [lintOpen, setLintOpen] = useState(false);
  if (!state) return <Loading label={MSG.loading} />;
  const message = stateMessage(state);
  const busy = isTaskRunnerBusy(state.phase);
  const lastRun = state.lastRunDate ? formatDateTime(state.lastRunDate) : '';

  const run = async () => {
    setRunning(true);
    try {
      const sent = useTaskRunnerStore.getState().state;
      const next = await taskRunnerApi.build(domainId, portalId);
      if (next && typeof next === 'object' && 'phase' in next)
        applyAnsweredTaskRunnerState(`${domainId}/${portalId}`, sent, next);
    } catch (error) {
      showToast({
        type: 'DANGER',
        title: MSG.buildFailed,
        message: toApiError(error).errorMessage,
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
    } finally {
      setRunning(false);
    }
  };

  return (
    <Stack spacing={1.5} data-phase={state.phase}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ pt: 0.25 }} aria-hidden>
          {phaseIcon(state).icon}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="subtitle1" component="h2" role={busy ? 'status' : undefined}>
            {message.title}
          </Typography>
          {message.detail && <Typography color="text.secondary">{message.detail}</Typography>}
        </Box>
      </Stack>
      {lastRun && (
        <Typography variant="body2" color="text.secondary">
          {MSG.lastRunWas} {lastRun}
        </Typography>
      )}
      {showsActions(state.phase) && (
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', flexWrap: 'wrap' }}>
          <Button onClick={() => setLintOpen(true)}>
            {MSG.lintWarnings}
            {state.lintWarnings?.length ? ` (${String(state.lintWarnings.length)})` : ''}
          </Button>
          <Button onClick={() => setOutputOpen(true)}>{MSG.lastRunOutput}</Button>
          {canWrite && (
            <Button variant="contained" disabled={running} onClick={() => void run()}>
              {MSG.runTasks}
            </Button>
          )}
        </Stack>
      )}
      {outputOpen && <OutputDialog domainId={domainId} portalId={portalId} onClose={() => setOutputOpen(false)} />}
      {lintOpen && <LintDialog domainId={domainId} portalId={portalId} onClose={() => setLintOpen(false)} />}
    </Stack>
  );
}

/** The last run's output (80vw) with Close and Copy ('Output copied to clipboard'). */
export function OutputDialog({
  domainId,
  portalId,
  onClose,
}: {
  domainId: string;
  portalId: string;
  onClose: () => void;
}) {
  const titleId = useId();
  const query = useQuery({
    queryKey: taskRunnerKeys.output(domainId, portalId),
    queryFn: () => taskRunnerApi.output(domainId, portalId),
    retry: false,
    gcTime: 0,
  });
  useEffect(() => {
    if (!query.isError) return;
    toasts.danger(MSG.openOutputFailedMessage, MSG.openOutputFailedTitle);
    onClose();
  }, [query.isError, onClose]);
  if (query.isError) return null;
  const output = typeof query.data === 'string' ? query.data : '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(output);
      toasts.success(MSG.copied);
    } catch {
      toasts.danger(MSG.copyFailed);
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '80vw', maxWidth: '80vw' } } }}
    >
      <DialogTitle id={titleId}>{MSG.outputTitle}</DialogTitle>
      <DialogContent dividers>
        {query.isPending ? (
          <Loading label={MSG.outputTitle} />
        ) : output ? (
          <Box
            component="pre"
            aria-label={MSG.outputTitle}
            sx={{ m: 0, fontFamily: 'monospace', fontSize: 13, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          >
            {output}
          </Box>
        ) : (
          <Typography color="text.secondary">{MSG.noOutput}</Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{MSG.close}</Button>
        <Button variant="contained" disabled={query.isPending} onClick={() => void copy()}>
          {MSG.copy}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The Dockerfile lint warnings (GET …/lint): rule, message, line and a link to the rule. */
export function LintDialog({
  domainId,
  portalId,
  onClose,
}: {
  domainId: string;
  portalId: string;
  onClose: () => void;
}) {
  const titleId = useId();
  const query = useQuery({
    queryKey: taskRunnerKeys.lint(domainId, portalId),
    queryFn: () => taskRunnerApi.lint(domainId, portalId),
    retry: false,
  });
  useEffect(() => {
    if (!query.isError) return;
    showToast({
      type: 'DANGER',
      title: MSG.lintFailed,
      message: toApiError(query.error).errorMessage,
      timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
      closeButton: true,
    });
    onClose();
  }, [query.isError, query.error, onClose]);
  if (query.isError) return null;
  const warnings: LintWarning[] = Array.isArray(query.data) ? query.data : [];
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{MSG.lintWarnings}</DialogTitle>
      <DialogContent dividers>
        {query.isPending ? (
          <Loading label={MSG.lintWarnings} />
        ) : warnings.length === 0 ? (
          <Typography color="text.secondary">{MSG.noLintWarnings}</Typography>
        ) : (
          <List dense aria-label={MSG.lintWarnings}>
            {warnings.map((w, i) => (
              <ListItem key={`${w.rule}-${String(w.line)}-${String(i)}`} divider>
                <ListItemText
                  primary={`${w.rule}: ${w.message}`}
                  secondary={
                    <>
                      {`${MSG.lintLine} ${String(w.line)}`}
                      {w.url && (
                        <>
                          {' · '}
                          <Link href={w.url} target="_blank" rel="noopener noreferrer">
                            {MSG.learnMore}
                          </Link>
                        </>
                      )}
                    </>
                  }
                />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{MSG.close}</Button>
      </DialogActions>
    </Dialog>
  );
}
