import { afterEach, describe, expect, it } from 'vitest';
import {
  applyAnsweredTaskRunnerState,
  clearTaskRunnerState,
  setTaskRunnerState,
  useTaskRunnerStore,
} from './taskRunnerStore';

afterEach(clearTaskRunnerState);

describe('applyAnsweredTaskRunnerState', () => {
  it('does not put a RUNNING state that arrived while Run Tasks was answered back to VALIDATING', () => {
    setTaskRunnerState('1/2', { phase: 'STABLE' });
    const sent = useTaskRunnerStore.getState().state;
    setTaskRunnerState('1/2', { phase: 'VALIDATING' }); // the socket, before the answer
    setTaskRunnerState('1/2', { phase: 'RUNNING' });
    applyAnsweredTaskRunnerState('1/2', sent, { phase: 'VALIDATING' });
    expect(useTaskRunnerStore.getState().state?.phase).toBe('RUNNING');
  });

  it('applies the answer when no message came meanwhile', () => {
    setTaskRunnerState('1/2', { phase: 'STABLE' });
    const sent = useTaskRunnerStore.getState().state;
    applyAnsweredTaskRunnerState('1/2', sent, { phase: 'VALIDATING' });
    expect(useTaskRunnerStore.getState().state?.phase).toBe('VALIDATING');
  });
});
