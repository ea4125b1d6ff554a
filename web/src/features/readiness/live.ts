/**
 * READINESS_CHANGED (portal room; docs/readiness.md "API"): after each write to a workspace the
 * server says what that user's change added and resolved, and their findings in the files they
 * have not committed.
 *
 * - The caller's own: the shared workspace report is patched at once (the resolved out, the
 *   added in, the changed files' findings as they are now, the new summary) and marked stale; the
 *   per-file marks are read again. A change that added errors says so in one toast per save
 *   ("Saved. This change added 2 readiness errors.") with Show, which opens the Readiness screen.
 * - Another author's: their entry in the others' findings is replaced (or dropped when empty).
 */
import type { QueryClient } from '@tanstack/react-query';
import {
  readinessKeys,
  type Finding,
  type OthersReadiness,
  type ReadinessMessage,
  type ReadinessReport,
} from '../../api/readiness';
import type { RoomMessage } from '../../api/realtime';
import { paths } from '../../core/paths';
import { useSelectionStore } from '../../core/selectionStore';
import { useSessionStore } from '../../core/sessionStore';
import { dismissToast, showToast, useToastStore } from '../../core/toastService';
import { READINESS_MESSAGES as MSG } from './messages';

export const READINESS_CHANGED = 'READINESS_CHANGED';
/** How long the toast stays (it has buttons, so it is a prompt: it is dismissed by time here). */
export const READINESS_TOAST_MS = 10_000;

function isReadinessMessage(v: unknown): v is ReadinessMessage {
  if (!v || typeof v !== 'object') return false;
  const m = v as Partial<ReadinessMessage>;
  return (
    m.domainId != null &&
    m.portalId != null &&
    !!m.user &&
    m.user.id != null &&
    (m.added === undefined || m.added === null || Array.isArray(m.added))
  );
}

const findingKey = (f: Finding) => `${f.id}:${f.line ?? 0}:${f.message}`;

/** The report after a change: resolved findings out, added ones in, the changed files' findings as sent. */
export function patchReport(report: ReadinessReport, m: ReadinessMessage): ReadinessReport {
  const removed = new Set((m.removed ?? []).map(findingKey));
  const current = m.findings ?? [];
  const resent = new Set(current.map((f) => f.path));
  const kept = report.findings.filter((f) => !removed.has(findingKey(f)) && !resent.has(f.path));
  const seen = new Set(kept.map(findingKey));
  const findings = [...kept];
  for (const f of [...current, ...(m.added ?? [])]) {
    const key = findingKey(f);
    if (!seen.has(key) && !removed.has(key)) {
      seen.add(key);
      findings.push(f);
    }
  }
  return { ...report, findings, summary: m.summary ?? report.summary };
}

/** The others' list with one author's entry replaced (dropped when they have no findings left). */
export function patchOthers(list: readonly OthersReadiness[], m: ReadinessMessage): OthersReadiness[] {
  const rest = list.filter((o) => String(o.user.id) !== String(m.user.id));
  const findings = m.findings ?? [];
  if (findings.length === 0) return rest;
  const entry: OthersReadiness = { user: m.user, branch: m.branch, summary: m.summary, findings };
  const at = list.findIndex((o) => String(o.user.id) === String(m.user.id));
  if (at < 0) return [...rest, entry];
  return [...rest.slice(0, at), entry, ...rest.slice(at)];
}

let toastId: number | null = null;
let toastTimer: ReturnType<typeof setTimeout> | null = null;

/** One toast per save; a newer save's replaces the one still up. */
function announce(errors: number, open: () => void): void {
  if (toastId !== null && useToastStore.getState().toasts.some((t) => t.id === toastId)) dismissToast(toastId);
  if (toastTimer) clearTimeout(toastTimer);
  const handle = showToast({
    type: 'WARNING',
    message: MSG.savedWithErrors(errors),
    isPrompt: true,
    promptAcceptText: MSG.show,
    promptRejectText: MSG.dismiss,
  });
  if (!handle) return;
  const id = handle.id;
  toastId = id;
  toastTimer = setTimeout(() => dismissToast(id), READINESS_TOAST_MS);
  void handle.result.then((accepted) => {
    if (toastId === id) {
      toastId = null;
      if (toastTimer) clearTimeout(toastTimer);
      toastTimer = null;
    }
    if (accepted) open();
  });
}

export interface ReadinessMessageOptions {
  /** Goes to a route (Show). */
  navigate: (path: string) => void;
}

/** Applies one room message if it is READINESS_CHANGED. */
export function handleReadinessMessage(
  message: RoomMessage,
  queryClient: QueryClient,
  { navigate }: ReadinessMessageOptions,
): void {
  if (message.title !== READINESS_CHANGED || !isReadinessMessage(message.data)) return;
  const m = message.data;
  const d = String(m.domainId);
  const p = String(m.portalId);
  const me = useSessionStore.getState().user?.id;
  if (me != null && String(m.user.id) === String(me)) {
    queryClient.setQueryData<ReadinessReport>(readinessKeys.workspace(d, p), (report) =>
      report ? patchReport(report, m) : report,
    );
    void queryClient.invalidateQueries({ queryKey: readinessKeys.workspace(d, p), refetchType: 'none' });
    void queryClient.invalidateQueries({ queryKey: readinessKeys.files(d, p) });
    const errors = (m.added ?? []).filter((f) => f.severity === 'error').length;
    if (errors > 0)
      announce(errors, () => {
        const { language, branch } = useSelectionStore.getState();
        navigate(paths.portalReadiness(d, p, m.branch || branch || '', language ?? undefined));
      });
    return;
  }
  const others = readinessKeys.others(d, p);
  if (queryClient.getQueryData(others))
    queryClient.setQueryData<OthersReadiness[]>(others, (list) => (list ? patchOthers(list, m) : list));
  else void queryClient.invalidateQueries({ queryKey: others });
}
