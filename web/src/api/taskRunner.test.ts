import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from './authStorage';
import { jsonResponse, jwtExpiringIn, mockFetch, noContent, textResponse } from '../test/helpers';
import { isTaskRunnerBusy, isTaskRunnerState, taskRunnerApi, taskRunnerKeys } from './taskRunner';
import { portalKeys } from './portal';

beforeEach(() => storeTokens({ id_token: jwtExpiringIn(900) }));
afterEach(() => vi.unstubAllGlobals());

const B = 'api/v1/workspace-build/1/3';

describe('taskRunnerApi', () => {
  it('calls the workspace-build endpoints', async () => {
    const fetch = mockFetch({
      [`PUT ${B}/build`]: () => jsonResponse({ phase: 'VALIDATING' }),
      [`GET ${B}/state`]: () => jsonResponse({ phase: 'STABLE', lastRunDate: '2026-11-20T10:00:00Z' }),
      [`GET ${B}/lint`]: () => jsonResponse([{ rule: 'R', message: 'm', line: 1, url: 'u' }]),
      [`POST ${B}/clear`]: () => noContent(),
      [`GET ${B}/output`]: () => textResponse('done\n'),
      [`GET ${B}/templates`]: () => jsonResponse([{ name: 'node' }]),
      [`GET ${B}/dockerfile/node%2020`]: () => textResponse('FROM node:20'),
    });
    expect(await taskRunnerApi.build(1, 3)).toEqual({ phase: 'VALIDATING' });
    expect((await taskRunnerApi.state(1, 3)).phase).toBe('STABLE');
    expect(await taskRunnerApi.lint(1, 3)).toHaveLength(1);
    await taskRunnerApi.clear(1, 3);
    expect(await taskRunnerApi.output(1, 3)).toBe('done\n');
    expect(await taskRunnerApi.templates(1, 3)).toEqual([{ name: 'node' }]);
    expect(await taskRunnerApi.dockerfile(1, 3, 'node 20')).toBe('FROM node:20');
    expect(fetch).toHaveBeenCalledTimes(7);
  });

  it('keys live under the workspace prefix', () => {
    expect(taskRunnerKeys.state(1, 3).slice(0, 3)).toEqual([...portalKeys.workspace(1, 3)]);
    expect(taskRunnerKeys.lint('1', '3')).toEqual(['portal', '1', '3', 'task-runner', 'lint']);
  });

  it('recognises states and the busy phases', () => {
    expect(isTaskRunnerState({ phase: 'STALE' })).toBe(true);
    expect(isTaskRunnerState({ phase: 'DONE' })).toBe(false);
    expect(isTaskRunnerState(null)).toBe(false);
    expect(isTaskRunnerBusy('VALIDATING')).toBe(true);
    expect(isTaskRunnerBusy('RUNNING')).toBe(true);
    expect(isTaskRunnerBusy('STALE')).toBe(false);
    expect(isTaskRunnerBusy(null)).toBe(false);
  });
});
