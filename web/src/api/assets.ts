/**
 * Asset calls (spec 2 §7 "Assets"; /tmp asset contract of issue 10): folders, files, uploads,
 * deletes, renames, size limits and thumbnails of the caller's workspace of a portal.
 *
 * Asset paths are absolute-looking ('/', '/images/a.png'); in URLs they go without the leading
 * slash, each segment escaped. Every workspace-derived query key is under
 * portalKeys.workspace(d, p), so Reload Now, reverts, Reset and branch switches refresh them.
 *
 * Uploads use XMLHttpRequest (fetch reports no upload progress) with the same bearer token the
 * one client sends (client.accessToken), one request per file so each has its own progress and
 * can be cancelled on its own.
 */
import { useQuery } from '@tanstack/react-query';
import { accessToken, api, API_BASE, handleUnauthorized, type Versioned } from './client';
import { ApiError, errorFromResponse } from './errors';
import { portalKeys, type Id } from './portal';
import type * as gen from './types.gen';

export type CanEdit = gen.AssetCanEdit;

/** A file or folder of the workspace; `type` is the MIME type, 'DIR' for a folder. */
export interface Asset {
  name: string;
  path: string;
  type: string;
  createdDate: string;
  size: number;
  width?: number;
  height?: number;
  dimensions?: string;
  canEdit?: CanEdit;
  /** In a folder's children: true for non-folders. */
  isHidden?: boolean;
  /** A folder that contains a folder. */
  hasChildren?: boolean;
  /** The file's version (its ETag); files only. */
  version?: string;
  /** The source editor's Ace mode of an editable file (the server's file type table). */
  editorMode?: string;
  /** Files read one by one: a save of this JSON file must be strict JSON (it was, or has a schema). */
  strictJson?: boolean;
  /** One level of children; folders only. */
  children?: Asset[];
  /**
   * An entry the product shows but never changes: a symbolic link (target: where it points),
   * a git submodule, or a Git LFS object (target: its object id; size: its real size).
   */
  kind?: AssetKindMark;
  target?: string;
}

export type AssetKindMark = 'link' | 'submodule' | 'lfs';

/** Whether an entry is one the product never changes (a link, submodule or LFS object). */
export const isProtected = (asset: Pick<Asset, 'kind'>) => !!asset.kind;

/** How the File Explorer names a protected entry. */
export function protectedLabel(asset: Pick<Asset, 'kind' | 'target'>): string | null {
  switch (asset.kind) {
    case 'link':
      return `Link to ${asset.target ?? '?'}`;
    case 'submodule':
      return 'Git submodule';
    case 'lfs':
      return 'Git LFS object';
    default:
      return null;
  }
}

export const FOLDER_TYPE = 'DIR';
export const isFolder = (asset: Pick<Asset, 'type'>) => asset.type === FOLDER_TYPE;

export type SizeLimitGroup = gen.AssetTypeLimit;

export type SizeLimits = gen.AssetSizeLimits;

/** One file's failure in an upload: `error` is a JSON string of an error object. */
export type UploadFileError = gen.AssetUploadError;

export type UploadResult = gen.AssetUploadResult;

/** One path's answer to a delete; `error.error` is a JSON string {errorMessage, data: referencing files}. */
export type DeleteResult = gen.AssetDeleteResult;

export type ImageInfo = gen.AssetSize;

export type ThumbnailToken = gen.ThumbnailTokenAnswer;

const seg = (v: Id) => encodeURIComponent(String(v));
const base = (d: Id, p: Id) => `assets/${seg(d)}/${seg(p)}`;

/** '/images/a b.png' → 'images/a%20b.png' (no leading slash, each segment escaped). */
export function assetUrlPath(path: string): string {
  return path
    .split('/')
    .filter((s) => s !== '')
    .map(encodeURIComponent)
    .join('/');
}

/** The parent folder of a path ('/images/a.png' → '/images', '/a.png' → '/'). */
export function parentPath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const index = trimmed.lastIndexOf('/');
  return index <= 0 ? '/' : trimmed.slice(0, index);
}

/** A child path of a folder ('/' + 'a' → '/a', '/x' + 'a' → '/x/a'). */
export function childPath(folder: string, name: string): string {
  return `${folder === '/' ? '' : folder.replace(/\/+$/, '')}/${name}`;
}

export const assetApi = {
  /** Size limits per type, the total limit and the allowed extensions. */
  sizeLimits: () => api.get<SizeLimits>('assets/assetSizeLimits'),
  /** A folder with one level of children. */
  folder: (d: Id, p: Id, path: string) => api.get<Asset>(`${base(d, p)}/src/${assetUrlPath(path)}`),
  /** A file's Asset JSON (not its bytes). */
  meta: (d: Id, p: Id, path: string) =>
    api.get<Asset>(`${base(d, p)}/src/${assetUrlPath(path)}`, { query: { meta: 1 } }),
  /** A file's text with its version (the JSON and source editors). */
  source: (d: Id, p: Id, path: string) =>
    api.versioned.get<unknown>(`${base(d, p)}/src/${assetUrlPath(path)}`, { responseType: 'text' }),
  /** Saves a file's text if it is still at `version` (null: a new file); 409 FILE_CHANGED otherwise. */
  saveSource: (d: Id, p: Id, path: string, data: string, version: string | null): Promise<Versioned<Asset>> =>
    api.versioned.post<Asset>(`${base(d, p)}/src/${assetUrlPath(path)}`, { data }, version),
  /** Width and height of an image (0, 0 when not an image). */
  info: (d: Id, p: Id, path: string) => api.get<ImageInfo>(`${base(d, p)}/src/info/${assetUrlPath(path)}`),
  /** The file's bytes (buffered download). */
  download: (d: Id, p: Id, path: string) =>
    api.get<Blob>(`${base(d, p)}/buffered/${assetUrlPath(path)}`, { responseType: 'blob' }),
  /** Deletes files and empty folders; answers one result per path. */
  remove: (d: Id, p: Id, paths: string[]) => api.post<DeleteResult[]>(`${base(d, p)}/delete`, paths),
  createFolder: (d: Id, p: Id, path: string) => api.post<Asset>(`${base(d, p)}/folder/create`, [path]),
  renameFolder: (d: Id, p: Id, oldPath: string, newPath: string) =>
    api.put<Asset>(`${base(d, p)}/folder/rename`, { oldPath, newPath }),
  renameFile: (d: Id, p: Id, oldPath: string, newPath: string) =>
    api.put<Asset>(`${base(d, p)}/file/rename`, { oldPath, newPath }),
  /** A short-lived read token for thumbnail URLs (never the login token). */
  thumbnailToken: (d: Id, p: Id) => api.post<ThumbnailToken>(`thumbnail/${seg(d)}/${seg(p)}/token`),
};

/** Every asset query key; all but the size limits are under the portal's workspace key. */
export const assetKeys = {
  /** Everything of the portal's assets. */
  all: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'assets'] as const,
  folder: (d: Id, p: Id, path: string) => [...assetKeys.all(d, p), 'folder', path] as const,
  info: (d: Id, p: Id, path: string) => [...assetKeys.all(d, p), 'info', path] as const,
  thumbnailToken: (d: Id, p: Id) => [...assetKeys.all(d, p), 'thumbnail-token'] as const,
  /** Not workspace-derived: the same for every portal. */
  sizeLimits: () => ['assets', 'size-limits'] as const,
};

// ---------------------------------------------------------------------------
// Uploads

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadHandle {
  /** Resolves with the server's result; rejects with ApiError (413 'file size exceeded', …) or an AbortError. */
  result: Promise<UploadResult>;
  abort: () => void;
}

/** The DOMException name of a cancelled upload. */
export const UPLOAD_ABORTED = 'AbortError';

/**
 * Uploads `files` into `folder` (multipart, field 'files') reporting progress. Over a type
 * limit or the total the server answers 413 and stores nothing.
 */
export function uploadFiles(
  d: Id,
  p: Id,
  folder: string,
  files: readonly File[],
  onProgress?: (progress: UploadProgress) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  let aborted = false;
  const result = (async () => {
    const token = await accessToken();
    if (aborted) throw new DOMException('Upload cancelled', UPLOAD_ABORTED);
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    return new Promise<UploadResult>((resolve, reject) => {
      xhr.open('POST', `${API_BASE}${base(d, p)}/multi/src/${assetUrlPath(folder)}`);
      xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
      };
      xhr.onload = () => {
        const text = typeof xhr.responseText === 'string' ? xhr.responseText : '';
        if (xhr.status >= 200 && xhr.status < 300) {
          try {
            const parsed = (text ? JSON.parse(text) : {}) as Partial<UploadResult>;
            resolve({ success: parsed.success ?? [], errors: parsed.errors ?? [] });
          } catch {
            resolve({ success: files.map((f) => f.name), errors: [] });
          }
          return;
        }
        const error = errorFromResponse(xhr.status, text, xhr.getResponseHeader('X-Request-Id'));
        if (xhr.status === 401) handleUnauthorized(error);
        reject(error);
      };
      xhr.onerror = () => reject(new ApiError({ httpStatus: 0, errorCodeDesc: 'NETWORK_ERROR' }));
      xhr.onabort = () => reject(new DOMException('Upload cancelled', UPLOAD_ABORTED));
      xhr.send(form);
    });
  })();
  return {
    result,
    abort: () => {
      aborted = true;
      xhr.abort();
    },
  };
}

// ---------------------------------------------------------------------------
// Thumbnails

/** Renew the read token this long before it expires. */
export const THUMBNAIL_TOKEN_MARGIN_S = 60;

/**
 * The thumbnail read token of a portal, renewed before it expires (expiresIn minus a margin,
 * at least half of its life). Null until the first token arrived.
 */
export function useThumbnailToken(d: Id, p: Id, enabled = true): string | null {
  const query = useQuery({
    queryKey: assetKeys.thumbnailToken(d, p),
    queryFn: () => assetApi.thumbnailToken(d, p),
    enabled,
    staleTime: (q) => renewAfterMs(q.state.data),
    refetchInterval: (q) => renewAfterMs(q.state.data),
    refetchIntervalInBackground: true,
  });
  return query.data?.token ?? null;
}

/** When to renew a token: a margin before it expires, at least half its life (exported for tests). */
export function renewAfterMs(token: ThumbnailToken | undefined): number {
  if (!token) return 0;
  const seconds = Math.max(token.expiresIn - THUMBNAIL_TOKEN_MARGIN_S, token.expiresIn / 2);
  return Math.max(1, seconds) * 1000;
}

export type ThumbnailSize = { height: 200 } | { width: 240; height: 0 };
/** The grid's thumbnails are 200 high; elsewhere 240 wide (spec 2 §7). */
export const GRID_THUMBNAIL: ThumbnailSize = { height: 200 };
export const WIDE_THUMBNAIL: ThumbnailSize = { width: 240, height: 0 };

/** The URL of a thumbnail for <img src>, carrying the read token (never the login token). */
export function thumbnailUrl(
  d: Id,
  p: Id,
  branch: string,
  path: string,
  token: string,
  size: ThumbnailSize = GRID_THUMBNAIL,
): string {
  const params = new URLSearchParams();
  if ('width' in size) params.set('width', String(size.width));
  params.set('height', String(size.height));
  params.set('t', token);
  const branchSegment = encodeURIComponent(branch.replace(/\//g, ':'));
  return `${API_BASE}thumbnail/${seg(d)}/${seg(p)}/${branchSegment}/thumbnail/${assetUrlPath(path)}?${params.toString()}`;
}

/** The extensions shown as thumbnails (spec 2 §7). */
export const THUMBNAIL_EXTENSIONS = ['jpeg', 'jpg', 'png', 'gif', 'svg', 'tiff', 'tif', 'bmp', 'webp'] as const;

/** The lower-case extension of a name without the dot ('' when none; '.schema' → 'schema'). */
export function extensionOf(name: string): string {
  const index = name.lastIndexOf('.');
  return index < 0 ? '' : name.slice(index + 1).toLowerCase();
}

export const hasThumbnail = (asset: Pick<Asset, 'name' | 'type'>) =>
  !isFolder(asset) && (THUMBNAIL_EXTENSIONS as readonly string[]).includes(extensionOf(asset.name));
