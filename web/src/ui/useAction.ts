import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useRef } from 'react';
import { errorToastTitle, showHttpError, toasts } from '../core/toastService';

export interface ActionOptions<TVars, TData> {
  /** The call. */
  action: (vars: TVars) => Promise<TData>;
  /** The success toast's message; none when omitted. */
  success?: string | ((data: TData, vars: TVars) => string);
  /** The success toast's title: 'SUCCESS' unless given; null for none (where the spec has none). */
  successTitle?: string | null;
  /** The failure toast's title (a human one: 'Could not save the user'); the message is the server's. */
  failure: string | ((vars: TVars) => string);
  /** Queries refreshed after success (before onSuccess runs). */
  invalidate?: readonly QueryKey[] | ((data: TData, vars: TVars) => readonly QueryKey[]);
  onSuccess?: (data: TData, vars: TVars) => unknown;
}

export interface Action<TVars, TData> {
  /** Runs the action unless it is already running; failures become a danger toast. */
  run: (vars: TVars) => void;
  /**
   * Runs the action for a form: resolves with the result, rejects with the error (no failure
   * toast: the form shows it). A call while one is running rejects at once without a request.
   */
  submit: (vars: TVars) => Promise<TData>;
  /** True while the action runs: buttons that start it are disabled. */
  pending: boolean;
  /** What the running call was started with (which of several buttons spins); undefined when idle. */
  variables: TVars | undefined;
}

/** submit()'s rejection: the failure's human title and the error (a form shows both). */
export class ActionFailure extends Error {
  constructor(
    readonly title: string,
    readonly error: unknown,
  ) {
    super(title);
    this.name = 'ActionFailure';
  }
}

/** Thrown by submit() while the action is still running (a double click). */
export class ActionBusyError extends Error {
  constructor() {
    super('The action is already running');
    this.name = 'ActionBusyError';
  }
}

/**
 * The one mutation helper: a success toast, a failure toast with a human title, cache
 * invalidation, and a `pending` flag. A second start while the first runs sends nothing, so a
 * double click makes one request.
 */
export function useAction<TVars = void, TData = unknown>(options: ActionOptions<TVars, TData>): Action<TVars, TData> {
  const queryClient = useQueryClient();
  const running = useRef(false);
  const latest = useRef(options);
  latest.current = options;

  const mutation = useMutation<TData, unknown, TVars>({
    mutationFn: (vars) => latest.current.action(vars),
    onSuccess: async (data, vars) => {
      const { success, successTitle = 'SUCCESS', invalidate, onSuccess } = latest.current;
      if (success) {
        toasts.success(typeof success === 'function' ? success(data, vars) : success, successTitle ?? undefined);
      }
      const keys = typeof invalidate === 'function' ? invalidate(data, vars) : (invalidate ?? []);
      await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      await onSuccess?.(data, vars);
    },
  });

  const failureTitle = (vars: TVars) => {
    const { failure } = latest.current;
    return typeof failure === 'function' ? failure(vars) : failure;
  };

  async function submit(vars: TVars): Promise<TData> {
    if (running.current) throw new ActionBusyError();
    running.current = true;
    try {
      return await mutation.mutateAsync(vars);
    } catch (error) {
      throw new ActionFailure(errorToastTitle(error, failureTitle(vars)), error);
    } finally {
      running.current = false;
    }
  }

  function run(vars: TVars): void {
    if (running.current) return;
    submit(vars).catch((error: unknown) => {
      if (error instanceof ActionFailure) showHttpError(error.error, failureTitle(vars));
    });
  }

  return { run, submit, pending: mutation.isPending, variables: mutation.isPending ? mutation.variables : undefined };
}
