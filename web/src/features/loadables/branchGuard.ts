/**
 * The branch-change guard (spec 3 §2 "Dialog (600 wide) warning that a branch change is
 * attempted while a loadable is being created", §4 "Branch switching": the switch continues
 * only on confirmation). Cheap to import: the branch picker awaits confirmBranchChange() before
 * it switches; the dialog itself (BranchChangeDialog) is mounted in the header and shows what
 * this store asks.
 */
import { create } from 'zustand';
import { GENERATE_LOADABLE } from '../../api/loadables';
import { useSelectionStore } from '../../core/selectionStore';
import { useNotificationsStore, type Notification } from '../realtime';

interface GuardState {
  /** The question being asked: resolve(true) continues the switch. */
  pending: { resolve: (ok: boolean) => void } | null;
  /** How many dialog hosts are mounted (none: nobody can answer, the switch goes on). */
  hosts: number;
}

export const useBranchGuardStore = create<GuardState>(() => ({ pending: null, hosts: 0 }));

const field = (data: unknown, key: string): string | null => {
  if (!data || typeof data !== 'object') return null;
  const value = (data as Record<string, unknown>)[key];
  return value === undefined || value === null ? null : String(value);
};

/** Whether a card is a GENERATE_LOADABLE in progress of the portal. */
export const isLoadableInProgress = (card: Pick<Notification, 'messageType' | 'status' | 'data'>, portalId: string) =>
  card.messageType === GENERATE_LOADABLE && card.status === 'PROGRESS' && field(card.data, 'portalId') === portalId;

/** Whether a loadable of the portal (the open one when omitted) is being created. */
export function loadableBeingCreated(portalId?: string | number | null): boolean {
  const id = portalId ?? useSelectionStore.getState().portal?.id;
  if (id === undefined || id === null) return false;
  return useNotificationsStore.getState().cards.some((c) => isLoadableInProgress(c, String(id)));
}

/**
 * Resolves true when the branch may change: at once when no loadable of the open portal is
 * being created, otherwise with the user's answer in the warning dialog.
 */
export function confirmBranchChange(): Promise<boolean> {
  if (!loadableBeingCreated()) return Promise.resolve(true);
  const state = useBranchGuardStore.getState();
  if (state.hosts === 0) return Promise.resolve(true);
  state.pending?.resolve(false);
  return new Promise<boolean>((resolve) => {
    useBranchGuardStore.setState({ pending: { resolve } });
  });
}

/** Answers the question being asked (the dialog's Continue / Cancel). */
export function answerBranchChange(ok: boolean): void {
  const { pending } = useBranchGuardStore.getState();
  useBranchGuardStore.setState({ pending: null });
  pending?.resolve(ok);
}
