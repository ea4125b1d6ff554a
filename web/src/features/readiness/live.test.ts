import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readinessKeys, type OthersReadiness, type ReadinessMessage } from '../../api/readiness';
import { createQueryClient } from '../../core/queryClient';
import { clearToasts, dismissToast, useToastStore } from '../../core/toastService';
import { signIn } from '../../test/render';
import { handleReadinessMessage, patchOthers, patchReport, READINESS_CHANGED, READINESS_TOAST_MS } from './live';
import { finding, openPortal, report, resetReadinessTests, summaryOf } from './testing';

const me = { id: 1, userName: 'admin', firstName: 'Portal', lastName: 'Admin' };
const grace = { id: 9, userName: 'grace', firstName: 'Grace', lastName: 'Hopper' };
const link = finding();
const alt = finding({ id: 'f-alt', rule: 'page.img-alt', severity: 'warning', path: 'pages/about.html', line: 3 });
const asset = finding({
  id: 'f-asset',
  rule: 'asset.missing',
  path: 'pages/home.html',
  line: 20,
  message: 'Missing a.png',
});
const moved = { ...link, line: 14 };

const message = (data: Partial<ReadinessMessage>) => ({
  room: 'portal-2',
  title: READINESS_CHANGED,
  messageType: 'NOTIFICATION' as const,
  data: {
    domainId: 1,
    portalId: 2,
    user: me,
    branch: 'master',
    summary: summaryOf([]),
    added: [],
    removed: [],
    findings: [],
    ...data,
  },
});

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  clearToasts();
  signIn();
  openPortal();
});
afterEach(() => {
  vi.useRealTimers();
  clearToasts();
  resetReadinessTests();
});

const toasts = () => useToastStore.getState().toasts;

describe('READINESS_CHANGED for the caller', () => {
  it('patches the workspace report: resolved out, added in, the changed file as it is now, the summary', () => {
    const client = createQueryClient();
    const key = readinessKeys.workspace('1', '2');
    client.setQueryData(key, report([link, alt]));
    const summary = summaryOf([moved, asset]);
    handleReadinessMessage(message({ added: [asset], removed: [alt], findings: [moved, asset], summary }), client, {
      navigate: vi.fn(),
    });
    const patched = client.getQueryData<ReturnType<typeof report>>(key)!;
    expect(patched.findings).toEqual([moved, asset]);
    expect(patched.summary).toEqual(summary);
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });

  it('says once per save that errors were added, with Show opening the Readiness screen', async () => {
    const client = createQueryClient();
    const navigate = vi.fn();
    const second = finding({ id: 'f-2', path: 'pages/home.html', line: 30 });
    handleReadinessMessage(message({ added: [asset, second, alt] }), client, { navigate });
    expect(toasts()).toHaveLength(1);
    expect(toasts()[0].message).toBe('Saved. This change added 2 readiness errors.');
    expect(toasts()[0].promptAcceptText).toBe('Show');

    // The next save replaces it; a save that adds only warnings says nothing.
    handleReadinessMessage(message({ added: [asset] }), client, { navigate });
    handleReadinessMessage(message({ added: [alt] }), client, { navigate });
    expect(toasts().map((t) => t.message)).toEqual(['Saved. This change added 1 readiness error.']);

    dismissToast(toasts()[0].id, true);
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/domain/1/portal/2/branch/master/en_GB/readiness'));
  });

  it('takes the toast away after a while', () => {
    handleReadinessMessage(message({ added: [asset] }), createQueryClient(), { navigate: vi.fn() });
    expect(toasts()).toHaveLength(1);
    vi.advanceTimersByTime(READINESS_TOAST_MS + 1);
    expect(toasts()).toHaveLength(0);
  });

  it('ignores other titles and malformed data', () => {
    const client = createQueryClient();
    handleReadinessMessage({ ...message({ added: [asset] }), title: 'PRESENCE' }, client, { navigate: vi.fn() });
    handleReadinessMessage({ ...message({}), data: { nope: true } }, client, { navigate: vi.fn() });
    expect(toasts()).toHaveLength(0);
  });
});

describe('READINESS_CHANGED for another author', () => {
  it("replaces their entry in the others' findings, without a toast", () => {
    const client = createQueryClient();
    const key = readinessKeys.others('1', '2');
    const bob: OthersReadiness = {
      user: { id: 5, userName: 'bob', firstName: '', lastName: '' },
      branch: 'master',
      summary: summaryOf([alt]),
      findings: [alt],
    };
    client.setQueryData(key, [bob]);
    handleReadinessMessage(
      message({ user: grace, added: [asset], findings: [asset], summary: summaryOf([asset]) }),
      client,
      {
        navigate: vi.fn(),
      },
    );
    expect(client.getQueryData<OthersReadiness[]>(key)!.map((o) => o.user.userName)).toEqual(['bob', 'grace']);
    expect(toasts()).toHaveLength(0);

    handleReadinessMessage(message({ user: grace, removed: [asset], findings: [] }), client, { navigate: vi.fn() });
    expect(client.getQueryData<OthersReadiness[]>(key)!.map((o) => o.user.userName)).toEqual(['bob']);
  });

  it('keeps an author in place when their findings change', () => {
    const m = message({ user: grace, findings: [asset] }).data as ReadinessMessage;
    const list = patchOthers(
      [
        { user: grace, branch: 'master', summary: summaryOf([link]), findings: [link] },
        { user: me, branch: 'master', summary: summaryOf([alt]), findings: [alt] },
      ],
      m,
    );
    expect(list.map((o) => o.user.id)).toEqual([9, 1]);
    expect(list[0].findings).toEqual([asset]);
  });
});

describe('patchReport', () => {
  it('does not repeat a finding sent both as added and as current', () => {
    const m = message({ added: [asset], findings: [asset] }).data as ReadinessMessage;
    expect(patchReport(report([]), m).findings).toEqual([asset]);
  });
});
