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
import Box from '@mui/material/Box';
import { isTaskRunnerBusy } from '../../api/taskRunner';
import { HeaderPopover } from '../../ui/HeaderPopover';
import { TASK_RUNNER_MESSAGES as MSG, TASK_RUNNER_PANEL_WIDTH } from './messages';
import { iconColor } from './model';
import { phaseIcon } from './phaseIcon';
import { TaskRunnerPanel } from './TaskRunnerPanel';
import { useTaskRunnerStore } from './taskRunnerStore';
import { useTaskRunnerSync, useTaskRunnerTarget } from './useTaskRunnerSync';

export function TaskRunnerMenu() {
  useTaskRunnerSync();
  const target = useTaskRunnerTarget();
  if (!target) return null;
  return <TaskRunnerButton key={target.key} domainId={target.domainId} portalId={target.portalId} />;
}

export default TaskRunnerMenu;

function TaskRunnerButton({ domainId, portalId }: { domainId: string; portalId: string }) {
  const state = useTaskRunnerStore((s) => s.state);
  const { icon, color, name } = phaseIcon(state);
  const busy = isTaskRunnerBusy(state?.phase);
  return (
    <HeaderPopover
      label={MSG.button}
      tooltip={MSG.button}
      triggerProps={{
        color: 'inherit',
        'aria-busy': busy || undefined,
        'data-phase': state?.phase ?? 'NONE',
        'data-icon': name,
      }}
      icon={
        <Box component="span" sx={{ display: 'inline-flex', color: iconColor(color) }}>
          {icon}
        </Box>
      }
      kind="dialog"
      panelLabel={MSG.panel}
      paperSx={{ width: TASK_RUNNER_PANEL_WIDTH, maxWidth: '100vw', p: 2 }}
    >
      <TaskRunnerPanel domainId={domainId} portalId={portalId} state={state} />
    </HeaderPopover>
  );
}
