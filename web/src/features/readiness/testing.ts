/** Test fixtures of the readiness screens (imported by *.test.ts(x) only). */
import type { Finding, IgnoredFinding, ReadinessReport, ReadinessSummary } from '../../api/readiness';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';

export const R = 'api/v1/readiness/1/2';
export const PORTAL_PATH = '/domain/1/portal/2/branch/master/en_GB';
export const PATTERN = '/domain/:domain/portal/:portal/branch/:branch/:language';

/** Opens domain 1 / portal 2 (a full portal engine portal) on master with `permissions`. */
export function openPortal(permissions: string[] = []) {
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Demo' },
    portal: { id: 2, name: 'Crew Portal', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE' },
    branch: 'master',
    language: 'en_GB',
    permissions,
  });
}

export const finding = (fields: Partial<Finding> = {}): Finding => ({
  id: 'f-link',
  rule: 'link.page-missing',
  severity: 'error',
  path: 'pages/home.html',
  line: 12,
  target: 'no-such-page',
  message: "Link to page 'no-such-page', which is not in the sitemap",
  ...fields,
});

export const summaryOf = (findings: readonly Finding[], ignored = 0): ReadinessSummary => ({
  errors: findings.filter((f) => f.severity === 'error').length,
  warnings: findings.filter((f) => f.severity === 'warning').length,
  infos: findings.filter((f) => f.severity === 'info').length,
  ignored,
  files: new Set(findings.map((f) => f.path)).size,
  byRule: {},
});

export const report = (findings: Finding[], ignored: IgnoredFinding[] = []): ReadinessReport => ({
  source: 'workspace',
  branch: 'master',
  commitId: 'c0ffee0000000000000000000000000000000000',
  findings,
  ignored,
  summary: summaryOf(findings, ignored.length),
  checkedAt: '2026-11-23T10:00:00Z',
  durationMs: 42,
});

export function resetReadinessTests() {
  useSelectionStore.setState({ ...initialSelectionState });
}
