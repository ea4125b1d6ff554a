import { describe, expect, it } from 'vitest';
import type { TaskRunnerPhase, TaskRunnerState } from '../../api/taskRunner';
import { iconColor, isRunnerState, lintCount, lintWarningsOf, outputText, phaseAppearance } from './model';

const st = (phase: TaskRunnerPhase, error?: TaskRunnerState['error']): TaskRunnerState => ({ phase, error });

describe('the task runner header icon', () => {
  it('follows the phase', () => {
    expect(phaseAppearance(st('INACTIVE'))).toEqual({ name: 'cross-out', color: 'disabled' });
    expect(phaseAppearance(st('UNINITIATED'))).toEqual({ name: 'info', color: 'info' });
    expect(phaseAppearance(st('VALIDATING'))).toEqual({ name: 'spinner', color: 'inherit' });
    expect(phaseAppearance(st('RUNNING'))).toEqual({ name: 'spinner', color: 'inherit' });
    expect(phaseAppearance(st('STABLE'))).toEqual({ name: 'check', color: 'success' });
    expect(phaseAppearance(st('UNSTABLE'))).toEqual({ name: 'cross', color: 'error' });
    expect(phaseAppearance(st('STALE'))).toEqual({ name: 'warning', color: 'warning' });
    expect(phaseAppearance(null)).toEqual({ name: 'none', color: 'inherit' });
  });

  it('shows a failed run as an error unless the runner is busy again', () => {
    const error = { errorMessage: 'The build failed' } as TaskRunnerState['error'];
    expect(phaseAppearance(st('STABLE', error))).toEqual({ name: 'error', color: 'error' });
    expect(phaseAppearance(st('RUNNING', error))).toEqual({ name: 'spinner', color: 'inherit' });
  });

  it('maps icon colours to the theme', () => {
    expect(iconColor('inherit')).toBe('inherit');
    expect(iconColor('disabled')).toBe('action.disabled');
    expect(iconColor('success')).toBe('success.main');
  });
});

describe("the task runner's answers", () => {
  it('takes a state from Run Tasks only when it is one', () => {
    expect(isRunnerState({ phase: 'RUNNING' })).toBe(true);
    expect(isRunnerState(undefined)).toBe(false);
    expect(isRunnerState('')).toBe(false);
    expect(isRunnerState({ status: 'ok' })).toBe(false);
  });

  it('reads the output and the lint warnings', () => {
    expect(outputText('Step 1/3')).toBe('Step 1/3');
    expect(outputText(null)).toBe('');
    const warning = { rule: 'DL3008', message: 'Pin versions', line: 4, url: 'https://example.com/DL3008' };
    expect(lintWarningsOf([warning])).toEqual([warning]);
    expect(lintWarningsOf({})).toEqual([]);
    expect(lintCount([warning, warning])).toBe(' (2)');
    expect(lintCount([])).toBe('');
    expect(lintCount(null)).toBe('');
  });
});
