/**
 * The task-runner menu's pure rules: the header icon of a state (which icon, which colour), and
 * what the API's answers hold (a state after Run Tasks, the output text, the lint warnings).
 * The phase messages are messages.ts.
 */
import { isTaskRunnerBusy, type LintWarning, type TaskRunnerPhase, type TaskRunnerState } from '../../api/taskRunner';

export type IconColor = 'inherit' | 'info' | 'success' | 'error' | 'warning' | 'disabled';

/** The header icon's name (the button's data-icon). */
export type PhaseIconName = 'error' | 'cross-out' | 'info' | 'spinner' | 'check' | 'cross' | 'warning' | 'none';

/** The header icon of a state (null: not loaded yet): a failed run shows the error cross unless the runner is busy. */
export function phaseAppearance(state: TaskRunnerState | null): { name: PhaseIconName; color: IconColor } {
  const phase: TaskRunnerPhase | null = state?.phase ?? null;
  if (state?.error && !isTaskRunnerBusy(phase)) return { name: 'error', color: 'error' };
  switch (phase) {
    case 'INACTIVE':
      return { name: 'cross-out', color: 'disabled' };
    case 'UNINITIATED':
      return { name: 'info', color: 'info' };
    case 'VALIDATING':
    case 'RUNNING':
      return { name: 'spinner', color: 'inherit' };
    case 'STABLE':
      return { name: 'check', color: 'success' };
    case 'UNSTABLE':
      return { name: 'cross', color: 'error' };
    case 'STALE':
      return { name: 'warning', color: 'warning' };
    default:
      return { name: 'none', color: 'inherit' };
  }
}

/** The theme colour of an icon colour. */
export const iconColor = (color: IconColor): string =>
  color === 'inherit' ? 'inherit' : color === 'disabled' ? 'action.disabled' : `${color}.main`;

/** Whether Run Tasks answered with the runner's state (older servers answer nothing). */
export const isRunnerState = (answer: unknown): answer is TaskRunnerState =>
  !!answer && typeof answer === 'object' && 'phase' in answer;

/** The last run's output as text ('' when there is none). */
export const outputText = (answer: unknown): string => (typeof answer === 'string' ? answer : '');

/** The lint warnings of an answer (none when it is not a list). */
export const lintWarningsOf = (answer: unknown): LintWarning[] => (Array.isArray(answer) ? answer : []);

/** The count shown after 'Lint warnings' (' (3)'), nothing without warnings. */
export const lintCount = (warnings: readonly unknown[] | null | undefined): string =>
  warnings?.length ? ` (${String(warnings.length)})` : '';
