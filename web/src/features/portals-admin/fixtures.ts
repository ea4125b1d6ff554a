/** Test data of the portal management screens (imported by *.test.tsx only); helpers are in src/test. */
import type { Portal, Template } from '../../api/portal';

export function portal(id: number, name: string, extra: Partial<Portal> = {}): Portal {
  return {
    id,
    domainId: 1,
    name,
    type: 'CREW',
    scope: 'FULL',
    status: 'active',
    categoryId: null,
    category: '',
    activeBranch: 'master',
    url: '',
    source: 'starter:crew',
    createdAt: '2026-03-01T10:00:00',
    lastModified: '2026-03-05T14:07:00',
    deactivated: false,
    ...extra,
  };
}

export const builtIns: Template[] = [
  {
    id: -1,
    name: 'crew',
    templateName: 'Crew starter',
    starter: 'crew',
    portalId: null,
    accounts: [],
    builtIn: true,
    updating: false,
    updateError: '',
    url: '',
  },
  {
    id: -2,
    name: 'passenger',
    templateName: 'Passenger starter',
    starter: 'passenger',
    portalId: null,
    accounts: [],
    builtIn: true,
    updating: false,
    updateError: '',
    url: '',
  },
];

export const ownTemplate: Template = {
  id: 5,
  name: 'Ops base',
  templateName: 'Ops base',
  portalId: 1,
  accounts: [1],
  builtIn: false,
  updating: false,
  updateError: '',
  url: '',
};
