/** Test data of the asset manager. */
import type { Asset, SizeLimits } from '../../api/assets';

const base = { createdDate: '2026-03-04T05:06:00Z', size: 0, isHidden: false, hasChildren: false };

export const folderAsset = (path: string, extra: Partial<Asset> = {}): Asset => ({
  ...base,
  name: path.split('/').pop() || '/',
  path,
  type: 'DIR',
  ...extra,
});

export const fileAsset = (path: string, extra: Partial<Asset> = {}): Asset => ({
  ...base,
  name: path.split('/').pop() ?? '',
  path,
  type: 'image/png',
  size: 2048,
  width: 640,
  height: 480,
  dimensions: '640x480',
  isHidden: true,
  ...extra,
});

export const sizeLimits: SizeLimits = {
  portal: {
    image: { assocExts: ['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp'], sizeLimitBytes: 1024 * 1024 },
    video: { assocExts: ['mp4'], sizeLimitBytes: 300 * 1024 * 1024 },
    pdf: { assocExts: ['pdf'], sizeLimitBytes: 10 * 1024 * 1024 },
    default: { assocExts: [], sizeLimitBytes: 5 * 1024 * 1024 },
  },
  totalLimitBytes: 419430400,
  allowedExtensions: ['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'json', 'pdf', 'schema', 'html', 'mp4'],
};

/** A File of `size` bytes without allocating them. */
export function fakeFile(name: string, size = 100, type = 'image/png'): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
