/** The Readiness screen's mutations, each through useAction: ignore, undo, save the settings. */
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, toApiError } from '../../api/errors';
import {
  readinessApi,
  readinessKeys,
  type Finding,
  type ReadinessReport,
  type ReadinessSettings,
} from '../../api/readiness';
import { ActionFailure, useAction } from '../../ui/useAction';
import { READINESS_MESSAGES as MSG } from './messages';

export function useReadinessActions(d: string, p: string) {
  const queryClient = useQueryClient();
  /** The answer is the workspace's new report: shown at once, the per-file marks read again. */
  const applyReport = (report: ReadinessReport) => {
    queryClient.setQueryData(readinessKeys.workspace(d, p), report);
    void queryClient.invalidateQueries({ queryKey: readinessKeys.files(d, p) });
  };
  const ignore = useAction({
    action: ({ finding, reason }: { finding: Finding; reason: string }) =>
      readinessApi.ignore(d, p, finding.id, reason.trim()),
    success: MSG.ignoredDone,
    failure: MSG.ignoreFailed,
    onSuccess: applyReport,
  });
  const unignore = useAction({
    action: (finding: Finding) => readinessApi.unignore(d, p, finding.id),
    success: MSG.unignoredDone,
    failure: MSG.unignoreFailed,
    onSuccess: applyReport,
  });
  const save = useAction({
    action: (settings: ReadinessSettings) => readinessApi.saveSettings(d, p, settings),
    success: MSG.settingsSaved,
    failure: MSG.settingsFailed,
    onSuccess: (saved) => {
      queryClient.setQueryData(readinessKeys.settings(d, p), saved);
      // The budgets change what is found.
      void queryClient.invalidateQueries({ queryKey: readinessKeys.workspace(d, p) });
      void queryClient.invalidateQueries({ queryKey: readinessKeys.files(d, p) });
    },
  });
  /** Saves for the form; a stale version (409) says to reopen the dialog and reads the settings again. */
  const saveSettings = async (settings: ReadinessSettings) => {
    try {
      return await save.submit(settings);
    } catch (error) {
      if (error instanceof ActionFailure && toApiError(error.error).httpStatus === 409) {
        void queryClient.invalidateQueries({ queryKey: readinessKeys.settings(d, p) });
        throw new ActionFailure(error.title, new ApiError({ httpStatus: 409, errorMessage: MSG.settingsStale }));
      }
      throw error;
    }
  };
  return { ignore, unignore, saveSettings };
}

export type ReadinessActions = ReturnType<typeof useReadinessActions>;
