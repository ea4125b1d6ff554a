import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { toApiError } from '../../api/errors';
import { isTaskRunnerBusy, taskRunnerApi, type TaskRunnerState } from '../../api/taskRunner';
import { usePermission } from '../../core/usePermission';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, showToast } from '../../core/toastService';
import { formatDateTime } from '../../lib/format';
import { Loading } from '../../ui/Loading';
import { ActionFailure, useAction } from '../../ui/useAction';
import { showsActions, stateMessage, TASK_RUNNER_MESSAGES as MSG } from './messages';
import { isRunnerState, lintCount } from './model';
import { phaseIcon } from './phaseIcon';
import { LintDialog, OutputDialog } from './TaskRunnerDialogs';
import { applyAnsweredTaskRunnerState, useTaskRunnerStore } from './taskRunnerStore';

/**
 * The task runner panel: the phase message, 'Last run was …' and — outside INACTIVE, VALIDATING
 * and RUNNING — Run Tasks (task_write), Last Run Output and Lint warnings.
 */
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
  const build = useAction({
    action: async () => {
      const sent = useTaskRunnerStore.getState().state;
      const next = await taskRunnerApi.build(domainId, portalId);
      if (isRunnerState(next)) applyAnsweredTaskRunnerState(`${domainId}/${portalId}`, sent, next);
    },
    failure: MSG.buildFailed,
  });
  const [outputOpen, setOutputOpen] = useState(false);
  const [lintOpen, setLintOpen] = useState(false);
  if (!state) return <Loading label={MSG.loading} />;
  const message = stateMessage(state);
  const busy = isTaskRunnerBusy(state.phase);
  const lastRun = state.lastRunDate ? formatDateTime(state.lastRunDate) : '';

  const run = () =>
    build.submit().catch((failure: unknown) => {
      if (!(failure instanceof ActionFailure)) return;
      showToast({
        type: 'DANGER',
        title: MSG.buildFailed,
        message: toApiError(failure.error).errorMessage,
        timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
        closeButton: true,
      });
    });

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
            {lintCount(state.lintWarnings)}
          </Button>
          <Button onClick={() => setOutputOpen(true)}>{MSG.lastRunOutput}</Button>
          {canWrite && (
            <Button variant="contained" disabled={build.pending} onClick={() => void run()}>
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
