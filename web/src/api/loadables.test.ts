import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeTokens } from './authStorage';
import { bodyOf, jsonResponse, jwtExpiringIn, mockFetch, queryOf } from '../test/helpers';
import {
  hasPackage,
  isApprovable,
  isGeneratable,
  isLoadable,
  isRejectable,
  loadableApi,
  loadableKeys,
  requestBody,
  systemOf,
  type LoadableRequest,
} from './loadables';

beforeEach(() => storeTokens({ id_token: jwtExpiringIn(900) }));
afterEach(() => vi.unstubAllGlobals());

const B = 'api/v1/loadable/1/3';
const L = { id: 5, status: 'GENERATED', name: 'n', version: '1.0.1', fileName: 'n-1.0.1.tar.gz' };
const D = { id: 9, loadableId: 5, target: 'unity-prod', system: 'unity', status: 'QUEUED', attempts: 0 };

const request: LoadableRequest = {
  name: ' crew-portal-20261123 ',
  partNumber: 'PW-POR-CREW',
  versionPrefix: '1.0',
  type: 'PORTAL',
  gitRef: 'master',
  copyrightData: { statement: 'S', metaData: { accept: true, ipAddress: '127.0.0.1' } },
};

describe('loadableApi', () => {
  it('calls the loadable endpoints with the spec query names', async () => {
    const fetch = mockFetch({
      [`GET ${B}`]: () => jsonResponse([L]),
      [`POST ${B}`]: () => jsonResponse({ ...L, status: 'PENDING' }, 201),
      [`GET ${B}/gitvalidation`]: () =>
        jsonResponse({ valid: true, branch: 'master', commitId: 'abc', ruleWarnings: [], message: 'ok' }),
      [`GET ${B}/copyright`]: () =>
        jsonResponse({ statement: 'S', assets: [], metaData: { accept: false, ipAddress: '1.2.3.4' } }),
      [`POST ${B}/generate/5`]: () => jsonResponse({ ...L, status: 'GENERATING' }, 202),
      [`GET ${B}/latestloadables`]: () => jsonResponse([L]),
      [`POST ${B}/preview`]: () => jsonResponse({ id: 2, type: 'LOADABLE', status: 'PROGRESS' }, 202),
      [`GET ${B}/generateName`]: () => jsonResponse({ name: 'crew-portal-20261123' }),
      [`GET ${B}/unity/partNumber`]: () => jsonResponse({ partNumber: 'PW-POR-CREW' }),
      [`POST ${B}/approve/5`]: () => jsonResponse({ ...L, status: 'APPROVED' }),
      [`PUT ${B}/reject/5`]: () => jsonResponse({ ...L, status: 'REJECTED' }),
      [`GET ${B}/getCopyright/5`]: () => jsonResponse({ statement: 'S', metaData: { accept: true, ipAddress: 'x' } }),
    });
    expect(await loadableApi.list(1, 3)).toEqual([L]);
    expect((await loadableApi.create(1, 3, request)).status).toBe('PENDING');
    expect(bodyOf(fetch, `POST ${B}`)).toMatchObject({
      name: 'crew-portal-20261123',
      copyrightData: { metaData: { accept: true } },
    });
    expect((await loadableApi.gitValidation(1, 3, 'PORTAL', 'master')).valid).toBe(true);
    expect(Object.fromEntries(queryOf(fetch, `GET ${B}/gitvalidation`))).toEqual({ type: 'PORTAL', branch: 'master' });
    expect((await loadableApi.copyright(1, 3, 'PORTAL', 'master')).statement).toBe('S');
    expect(queryOf(fetch, `GET ${B}/copyright`).get('checkRefs')).toBe('true');
    expect((await loadableApi.generate(1, 3, 5)).status).toBe('GENERATING');
    expect(await loadableApi.latest(1, 3)).toHaveLength(1);
    expect((await loadableApi.preview(1, 3, '1.0.1', 'phone')).type).toBe('LOADABLE');
    expect(bodyOf(fetch, `POST ${B}/preview`)).toEqual({ versionTag: '1.0.1', emulator: 'phone' });
    expect((await loadableApi.generateName(1, 3, 'PORTAL')).name).toBe('crew-portal-20261123');
    expect(queryOf(fetch, `GET ${B}/generateName`).get('contentType')).toBe('PORTAL');
    expect((await loadableApi.partNumber(1, 3, 'Crew Portal', 'PORTAL')).partNumber).toBe('PW-POR-CREW');
    expect(queryOf(fetch, `GET ${B}/unity/partNumber`).get('foldetName')).toBe('Crew Portal');
    expect((await loadableApi.approve(1, 3, 5)).status).toBe('APPROVED');
    expect((await loadableApi.reject(1, 3, 5, 'blurry')).status).toBe('REJECTED');
    expect(bodyOf(fetch, `PUT ${B}/reject/5`)).toEqual({ reason: 'blurry' });
    expect((await loadableApi.getCopyright(1, 3, 5)).metaData.accept).toBe(true);
  });

  it('sends a reject without a reason with no body', async () => {
    const fetch = mockFetch({ [`PUT ${B}/reject/5`]: () => jsonResponse({ ...L, status: 'REJECTED' }) });
    await loadableApi.reject(1, 3, 5);
    expect(bodyOf(fetch, `PUT ${B}/reject/5`)).toBeUndefined();
  });

  it('downloads the package with the bearer header and saves it under its name', async () => {
    const fetch = mockFetch({
      [`GET ${B}/download/n-1.0.1.tar.gz`]: () =>
        // A string body: a typed array made in the test's VM context is not one to the fetch
        // realm's Response (Vitest's vmThreads pool), which would serialise it.
        new Response('PK', { headers: { 'Content-Type': 'application/gzip' } }),
    });
    const blob = await loadableApi.downloadBlob(1, 3, 'n-1.0.1.tar.gz');
    expect(blob.size).toBe(2);
    const init = fetch.mock.calls[0][1] as RequestInit;
    expect(new Headers(init.headers).get('Authorization')).toMatch(/^Bearer /);

    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    const create = vi.fn(() => 'blob:x');
    URL.createObjectURL = create;
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      await loadableApi.download(1, 3, 'n-1.0.1.tar.gz');
      expect(create).toHaveBeenCalled();
      expect(click).toHaveBeenCalled();
    } finally {
      click.mockRestore();
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    }
  });

  it('hands over, lists deliveries, retries', async () => {
    const fetch = mockFetch({
      [`GET ${B}/unity/profiles/5`]: () =>
        jsonResponse([{ name: 'unity-prod', system: 'unity', kind: 'http', description: 'Unity' }]),
      [`POST ${B}/unity/5`]: () => jsonResponse(D, 202),
      [`POST ${B}/scmdb/5`]: () => jsonResponse({ ...D, system: 'scmdb', target: 'cms' }, 202),
      [`GET ${B}/handover/5`]: () => jsonResponse([D]),
      [`POST ${B}/handover/5/retry/9`]: () => jsonResponse({ ...D, status: 'QUEUED' }),
    });
    expect(await loadableApi.profiles(1, 3, 5)).toHaveLength(1);
    expect((await loadableApi.handOver(1, 3, 'unity', 5, 'unity-prod')).id).toBe(9);
    expect(bodyOf(fetch, `POST ${B}/unity/5`)).toEqual({ target: 'unity-prod' });
    expect((await loadableApi.handOver(1, 3, 'scmdb', 5, 'cms')).system).toBe('scmdb');
    expect(await loadableApi.deliveries(1, 3, 5)).toEqual([D]);
    expect((await loadableApi.retryDelivery(1, 3, 5, 9)).status).toBe('QUEUED');
  });
});

describe('loadable helpers', () => {
  it('removes the assets from the copyright data and trims the request', () => {
    const body = requestBody({
      ...request,
      copyrightData: {
        statement: 'S',
        metaData: { accept: true, ipAddress: '' },
        ...{ assets: [{ path: 'a.png', size: 1 }] },
      } as LoadableRequest['copyrightData'],
    });
    expect(body.name).toBe('crew-portal-20261123');
    expect(body.copyrightData).toEqual({ statement: 'S', metaData: { accept: true, ipAddress: '' } });
  });

  it('knows what each status allows', () => {
    expect(isGeneratable('FAILED') && isGeneratable('PENDING') && !isGeneratable('GENERATED')).toBe(true);
    expect(hasPackage('GENERATED') && hasPackage('APPROVED') && hasPackage('REJECTED') && !hasPackage('FAILED')).toBe(
      true,
    );
    expect(isApprovable('GENERATED') && !isApprovable('APPROVED')).toBe(true);
    expect(isRejectable('APPROVED') && !isRejectable('REJECTED')).toBe(true);
    expect(systemOf({ system: 'scmdb' })).toBe('scmdb');
    expect(systemOf({ system: 'unity' })).toBe('unity');
    expect(isLoadable(L)).toBe(true);
    expect(isLoadable({ id: 1, status: 'DONE' })).toBe(false);
    expect(loadableKeys.list(1, 3)).toEqual(['loadable', '1', '3', 'list']);
  });
});
