/** Test data and helpers of the portal management screens (imported by *.test.tsx only). */
import type { Portal, Template } from '../../api/portal';

export const noContent = () => new Response(null, { status: 204 });

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
};

/** The query string of the one call to `key` ("METHOD path"). */
export function queryOf(fetch: { mock: { calls: unknown[][] } }, key: string): URLSearchParams {
  const [method, path] = key.split(' ');
  const call = fetch.mock.calls.find(([url, init]) => {
    const m = ((init as RequestInit | undefined)?.method ?? 'GET').toUpperCase();
    return m === method && String(url).split('?')[0] === path;
  });
  if (!call) throw new Error(`no call to ${key}`);
  return new URLSearchParams(String(call[0]).split('?')[1] ?? '');
}
