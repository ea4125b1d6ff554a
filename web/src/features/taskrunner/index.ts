/** The task runner's UI (issue 13 item 3). waitForTasks lives in ./hold (cheap to import). */
export { waitForTasks, WAITING_ON_TASKS_MESSAGE } from './hold';
export { useTaskRunnerBusy, useTaskRunnerPhase, useTaskRunnerStore } from './taskRunnerStore';
export { TASK_RUNNER_MESSAGES, PHASE_MESSAGES } from './messages';
