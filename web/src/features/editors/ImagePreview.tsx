/**
 * An image field's preview in the JSON editor (spec 2 §2 "asset selector (thumbnail plus
 * dimensions)", §8 "missing-image placeholder"): the chosen image's thumbnail (240 wide) and
 * its width x height; an empty or unloadable image shows the missing-image placeholder.
 */
import BrokenImageIcon from '@mui/icons-material/BrokenImageOutlined';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { assetApi, assetKeys, hasThumbnail, thumbnailUrl, useThumbnailToken, WIDE_THUMBNAIL } from '../../api/assets';
import type { Id } from '../../api/portal';
import { useSelectionStore } from '../../core/selectionStore';
import { WIDGET_MESSAGES } from '../widgets';

const nameOf = (path: string) => path.split('/').pop() ?? path;
const absolute = (path: string) => (path.startsWith('/') ? path : `/${path}`);
const isRemote = (path: string) => /^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//');

export function ImagePreview({
  domain,
  portal,
  value,
  label,
}: {
  domain: Id;
  portal: Id;
  value: string;
  label: string;
}) {
  const branch = useSelectionStore((s) => s.branch ?? '');
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  const path = value && !isRemote(value) ? absolute(value.replace(/^\.\//, '')) : '';
  const image = !!path && hasThumbnail({ name: nameOf(path), type: '' });
  const token = useThumbnailToken(domain, portal, image);
  const info = useQuery({
    queryKey: assetKeys.info(domain, portal, path),
    queryFn: () => assetApi.info(domain, portal, path),
    enabled: image,
    retry: false,
  });
  const url = image && token && branch ? thumbnailUrl(domain, portal, branch, path, token, WIDE_THUMBNAIL) : null;
  const shown = url && brokenUrl !== url;
  return (
    <Stack spacing={0.5} role="group" aria-label={`${label} preview`} sx={{ mt: 1 }}>
      <Box sx={{ width: 240, minHeight: 80, display: 'grid', placeItems: 'center', bgcolor: 'action.hover' }}>
        {shown ? (
          <img
            src={url}
            alt={nameOf(path)}
            onError={() => setBrokenUrl(url)}
            style={{ maxWidth: '100%', objectFit: 'contain' }}
          />
        ) : (
          <BrokenImageIcon
            sx={{ fontSize: 56 }}
            color="disabled"
            titleAccess={WIDGET_MESSAGES.missingImage}
            data-testid="missing-image"
          />
        )}
      </Box>
      {info.data && info.data.width > 0 && (
        <Typography variant="body2" aria-label="Dimensions">
          {info.data.width} x {info.data.height}
        </Typography>
      )}
    </Stack>
  );
}
