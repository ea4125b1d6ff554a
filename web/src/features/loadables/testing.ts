/** Test fixtures of the loadable screens (imported by *.test.tsx only). */
import type { Loadable } from '../../api/loadables';
import { initialSelectionState, useSelectionStore } from '../../core/selectionStore';

export const B = 'api/v1/loadable/1/2';
export const PORTAL_PATH = '/domain/1/portal/2/branch/master/en_GB';
export const PATTERN = '/domain/:domain/portal/:portal/branch/:branch/:language';

/** Opens domain 1 / portal 2 (UNIVERSAL unless told) on master with `permissions`. */
export function openPortal(permissions: string[] = [], engineType: 'UNIVERSAL' | 'PORTAL_ENGINE' = 'UNIVERSAL') {
  useSelectionStore.setState({
    ...initialSelectionState,
    domain: { id: 1, name: 'Demo' },
    portal: { id: 2, name: 'Passenger Portal', supportLevel: 'FULL', engineType },
    branch: 'master',
    language: 'en_GB',
    permissions,
  });
}

export const sampleLoadable = (fields: Partial<Loadable> = {}): Loadable => ({
  id: 5,
  domainId: 1,
  portalId: 2,
  name: 'passenger-portal-portal-20261123',
  partNumber: 'PW-POR-PASSENGE',
  versionPrefix: '1.0',
  version: '1.0.1',
  type: 'PORTAL',
  gitRef: 'master',
  commitId: '0123456789abcdef0123456789abcdef01234567',
  status: 'GENERATED',
  fileName: 'passenger-portal-portal-20261123-1.0.1.tar.gz',
  size: 1234,
  sha256: 'ab',
  error: null,
  rejectReason: '',
  createdBy: { id: 1, userName: 'admin' },
  approvedBy: null,
  rejectedBy: null,
  createdAt: '2026-11-23T10:00:00Z',
  generatedAt: '2026-11-23T10:01:00Z',
  decidedAt: null,
  ...fields,
});
