import FileIcon from '@mui/icons-material/InsertDriveFileOutlined';
import FolderIcon from '@mui/icons-material/FolderOutlined';
import BrokenImageIcon from '@mui/icons-material/BrokenImageOutlined';
import Box from '@mui/material/Box';
import { useState } from 'react';
import Typography from '@mui/material/Typography';
import { GRID_THUMBNAIL, hasThumbnail, isFolder, protectedLabel, thumbnailUrl, type Asset } from '../../api/assets';

interface AssetThumbnailProps {
  domain: string;
  portal: string;
  branch: string;
  asset: Asset;
  /** The thumbnail read token; null while it loads. */
  token: string | null;
}

const HEIGHT = 200;

/** An asset's thumbnail 200 high; a placeholder for folders, other files, and a missing or broken image. */
export function AssetThumbnail({ domain, portal, branch, asset, token }: AssetThumbnailProps) {
  // The URL that failed: a renewed token gives a new URL, which is tried again.
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  const frame = { height: HEIGHT, display: 'grid', placeItems: 'center', bgcolor: 'action.hover' } as const;
  if (isFolder(asset)) {
    return (
      <Box sx={frame}>
        <FolderIcon sx={{ fontSize: 72 }} color="action" aria-hidden />
      </Box>
    );
  }
  const mark = protectedLabel(asset);
  if (mark) {
    // A link, a submodule or an LFS object: the repository holds no image to show.
    return (
      <Box sx={frame} data-testid="thumbnail-placeholder">
        <Typography variant="overline" color="text.secondary">
          {asset.kind === 'lfs' ? 'LFS' : mark}
        </Typography>
      </Box>
    );
  }
  const url = token ? thumbnailUrl(domain, portal, branch, asset.path, token, GRID_THUMBNAIL) : null;
  if (!hasThumbnail(asset) || !url || brokenUrl === url) {
    const Icon = hasThumbnail(asset) ? BrokenImageIcon : FileIcon;
    return (
      <Box sx={frame} data-testid="thumbnail-placeholder">
        <Icon sx={{ fontSize: 72 }} color="disabled" aria-hidden />
      </Box>
    );
  }
  return (
    <Box sx={frame}>
      <img
        src={url}
        // Decorative: the card names the file beside it.
        alt=""
        loading="lazy"
        onError={() => setBrokenUrl(url)}
        style={{ maxHeight: HEIGHT, maxWidth: '100%', objectFit: 'contain' }}
      />
    </Box>
  );
}
