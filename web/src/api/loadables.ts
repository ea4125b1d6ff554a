/**
 * Loadables of a UNIVERSAL portal (issue 14; spec 3 §3 "Loadable generation request", §4
 * "Loadables", §7 "Loadable"; docs/api.md "Loadables") — `loadable/{domainId}/{portalId}/…`:
 * list, create, gitvalidation, copyright, generate/{id}, latestloadables, preview,
 * generateName, approve/{id}, reject/{id}, getCopyright/{id}, download/{fileName},
 * unity/partNumber, and the hand-over: unity/profiles/{id}, unity/{id} | scmdb/{id},
 * handover/{id}, handover/{id}/retry/{deliveryId}.
 *
 * Permissions: loadable:r to list, download and preview; loadable:c to create and generate;
 * loadable:a to approve, reject and hand over. Other portals than UNIVERSAL answer 409
 * NOT_UNIVERSAL.
 */
import { api } from './client';
import type { Id } from './portal';
import type { Preview } from './preview';
import type * as gen from './types.gen';
import type { Narrow } from './types';
import { saveBlob } from '../lib/saveBlob';

export const LOADABLE_STATUSES = ['PENDING', 'GENERATING', 'GENERATED', 'FAILED', 'APPROVED', 'REJECTED'] as const;
export type LoadableStatus = (typeof LOADABLE_STATUSES)[number];

/** The error code of a failed build: its output is in `error.output` (spec 3 §8). */
export const MAKELOAD_ERROR_CODE = 'FAILED_TO_CREATE_LOADABLE_USING_MAKELOAD';

export type LoadablePerson = gen.LoadablePerson;

export type LoadableError = gen.NoticeErrorInfo;

export type Loadable = Narrow<gen.LoadableLoadable, { status: LoadableStatus }>;

/** An approval over the readiness gate (docs/readiness.md "The approval gate"). */
export type ApprovalOverride = gen.LoadableApprovalOverride;

/** The code of approve's 409 while the gate is on and the commit has readiness errors. */
export const READINESS_ERRORS = 'READINESS_ERRORS';
/** The longest reason of an approval override or a rejection the server takes, in characters (lib/validation runeCount). */
export const MAX_OVERRIDE_REASON = 1000;

export type CopyrightAsset = gen.LoadableAsset;

export type CopyrightMeta = gen.LoadableCopyrightMeta;

/** The copyright step (GET copyright): the statement, the commit's media files, the client address. */
export type Copyright = gen.LoadableCopyright;

/** The loadable generation request (spec 3 §3): assets are removed from the copyright data. */
export interface LoadableRequest {
  name: string;
  partNumber: string;
  versionPrefix: string;
  type: string;
  gitRef: string;
  copyrightData: { statement?: string; metaData: CopyrightMeta };
}

export type GitValidation = gen.LoadableGitValidation;

export const HANDOVER_SYSTEMS = ['unity', 'scmdb'] as const;
export type HandOverSystem = (typeof HANDOVER_SYSTEMS)[number];

/** A configured hand-over target (GET unity/profiles/{id}). */
export type HandOverTarget = gen.HandoverTarget;

export const DELIVERY_STATUSES = ['QUEUED', 'SENDING', 'DELIVERED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type Delivery = Narrow<gen.HandoverDelivery, { status: DeliveryStatus }>;

/** The emulators of a loadable preview. */
export const EMULATORS = ['phone', 'tablet', 'desktop'] as const;
export type Emulator = (typeof EMULATORS)[number];

/** Progress message types of loadables (user room; Notification data). */
export const GENERATE_LOADABLE = 'GENERATE_LOADABLE';
export const UPLOAD_LOADABLE = 'UPLOAD_LOADABLE';
/** Portal-room message: a loadable was created, generated or decided (docs/api.md "Realtime"). */
export const LOADABLE_CHANGED = 'LOADABLE_CHANGED';

const seg = (v: Id) => encodeURIComponent(String(v));
const base = (d: Id, p: Id) => `loadable/${seg(d)}/${seg(p)}`;

/** The request as sent: trimmed, the copyright's assets (and acceptance record) left out. */
export function requestBody(request: LoadableRequest): LoadableRequest {
  const { metaData, statement } = request.copyrightData;
  return {
    name: request.name.trim(),
    partNumber: request.partNumber.trim(),
    versionPrefix: request.versionPrefix.trim(),
    type: request.type,
    gitRef: request.gitRef.trim(),
    copyrightData: { ...(statement !== undefined ? { statement } : {}), metaData: { ...metaData } },
  };
}

export const loadableApi = {
  list: (d: Id, p: Id) => api.get<Loadable[]>(base(d, p), { cache: 'no-store' }),
  create: (d: Id, p: Id, request: LoadableRequest) => api.post<Loadable>(base(d, p), requestBody(request)),
  gitValidation: (d: Id, p: Id, type: string, branch: string) =>
    api.get<GitValidation>(`${base(d, p)}/gitvalidation`, { query: { type, branch }, cache: 'no-store' }),
  copyright: (d: Id, p: Id, type: string, branch: string, checkRefs = true) =>
    api.get<Copyright>(`${base(d, p)}/copyright`, { query: { type, branch, checkRefs } }),
  generate: (d: Id, p: Id, id: Id) => api.post<Loadable>(`${base(d, p)}/generate/${seg(id)}`),
  latest: (d: Id, p: Id) => api.get<Loadable[]>(`${base(d, p)}/latestloadables`, { cache: 'no-store' }),
  preview: (d: Id, p: Id, versionTag: string, emulator: string) =>
    api.post<Preview>(`${base(d, p)}/preview`, { versionTag, emulator }),
  generateName: (d: Id, p: Id, contentType: string) =>
    api.get<{ name: string }>(`${base(d, p)}/generateName`, { query: { contentType }, cache: 'no-store' }),
  /** The spec's query names (`foldetName` sic). */
  partNumber: (d: Id, p: Id, folderName: string, contentType: string, contentTag = '') =>
    api.get<{ partNumber: string }>(`${base(d, p)}/unity/partNumber`, {
      query: { foldetName: folderName, contentType, contentTag },
    }),
  /** Approve; `overrideReason` approves over the readiness gate's errors (409 READINESS_ERRORS without it). */
  approve: (d: Id, p: Id, id: Id, overrideReason?: string) =>
    api.post<Loadable>(`${base(d, p)}/approve/${seg(id)}`, overrideReason ? { overrideReason } : undefined),
  reject: (d: Id, p: Id, id: Id, reason?: string) =>
    api.put<Loadable>(`${base(d, p)}/reject/${seg(id)}`, reason ? { reason } : undefined),
  getCopyright: (d: Id, p: Id, id: Id) => api.get<Copyright>(`${base(d, p)}/getCopyright/${seg(id)}`),
  /** The package path relative to the API base. */
  downloadPath: (d: Id, p: Id, fileName: string) => `${base(d, p)}/download/${seg(fileName)}`,
  /** The package as a blob (the bearer header is needed, so no plain link). */
  downloadBlob: (d: Id, p: Id, fileName: string) =>
    api.get<Blob>(loadableApi.downloadPath(d, p, fileName), { responseType: 'blob', cache: 'no-store' }),
  /** Fetches the package and saves it under its file name. */
  download: async (d: Id, p: Id, fileName: string): Promise<void> => {
    saveBlob(await loadableApi.downloadBlob(d, p, fileName), fileName);
  },
  profiles: (d: Id, p: Id, id: Id) => api.get<HandOverTarget[]>(`${base(d, p)}/unity/profiles/${seg(id)}`),
  handOver: (d: Id, p: Id, system: HandOverSystem, id: Id, target: string) =>
    api.post<Delivery>(`${base(d, p)}/${system}/${seg(id)}`, { target }),
  deliveries: (d: Id, p: Id, id: Id) => api.get<Delivery[]>(`${base(d, p)}/handover/${seg(id)}`, { cache: 'no-store' }),
  retryDelivery: (d: Id, p: Id, id: Id, deliveryId: Id) =>
    api.post<Delivery>(`${base(d, p)}/handover/${seg(id)}/retry/${seg(deliveryId)}`),
};

export const loadableKeys = {
  all: (d: Id, p: Id) => ['loadable', String(d), String(p)] as const,
  list: (d: Id, p: Id) => [...loadableKeys.all(d, p), 'list'] as const,
  name: (d: Id, p: Id, type: string) => [...loadableKeys.all(d, p), 'name', type] as const,
  copyright: (d: Id, p: Id, type: string, ref: string) => [...loadableKeys.all(d, p), 'copyright', type, ref] as const,
  profiles: (d: Id, p: Id, id: Id) => [...loadableKeys.all(d, p), 'profiles', String(id)] as const,
  deliveries: (d: Id, p: Id, id: Id) => [...loadableKeys.all(d, p), 'deliveries', String(id)] as const,
};

/** The system a target is handed over with ('unity' unless the target says 'scmdb'). */
export const systemOf = (target: Pick<HandOverTarget, 'system'>): HandOverSystem =>
  target.system === 'scmdb' ? 'scmdb' : 'unity';

/** Whether a loadable may be generated (again). */
export const isGeneratable = (s: LoadableStatus) => s === 'PENDING' || s === 'FAILED';
/** Whether a loadable has a package to download and preview. */
export const hasPackage = (s: LoadableStatus) => s === 'GENERATED' || s === 'APPROVED' || s === 'REJECTED';
export const isApprovable = (s: LoadableStatus) => s === 'GENERATED';
export const isRejectable = (s: LoadableStatus) => s === 'GENERATED' || s === 'APPROVED';

/** Whether a value looks like a Loadable (a socket message's payload is not trusted). */
export function isLoadable(value: unknown): value is Loadable {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<Loadable>;
  return (
    typeof v.id === 'number' &&
    typeof v.status === 'string' &&
    (LOADABLE_STATUSES as readonly string[]).includes(v.status)
  );
}
