import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Checkbox from '@mui/material/Checkbox';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { isFolder, type Asset, protectedLabel } from '../../api/assets';
import { useSettledValue } from '../../lib/useSettledValue';
import { AssetThumbnail } from './AssetThumbnail';
import { EditAction } from './EditAction';

export interface AssetViewProps {
  domain: string;
  portal: string;
  branch: string;
  assets: readonly Asset[];
  /** The selected files' paths. */
  selected: ReadonlySet<string>;
  /** Whether files can be selected (asset_write in the explorer; always in a picker). */
  selectable: boolean;
  onToggle: (asset: Asset) => void;
  onOpenFolder: (path: string) => void;
  thumbnailToken: string | null;
  /** Opens a file in its editor (the explorer; pickers leave it out). */
  onEdit?: (asset: Asset) => void;
  /** A mark beside a file's or folder's name (the explorer: other users changing it, readiness errors). */
  markOf?: (asset: Asset) => ReactNode;
}

/** The grid renders a selection this long after it last changed (spec 2 §4, §9). */
export const GRID_SELECTION_RENDER_MS = 150;

/** The folder's assets as cards with 200-high thumbnails; a folder card opens the folder. */
export function AssetGrid({
  domain,
  portal,
  branch,
  assets,
  selected,
  selectable,
  onToggle,
  onOpenFolder,
  thumbnailToken,
  onEdit,
  markOf,
}: AssetViewProps) {
  // Toggling many cards (or Select All over a big folder) re-renders the grid once.
  const shown = useSettledValue(selected, GRID_SELECTION_RENDER_MS);
  return (
    <Box
      role="list"
      aria-label="Assets"
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))' }}
    >
      {assets.map((asset) => {
        const folder = isFolder(asset);
        const isSelected = shown.has(asset.path);
        return (
          <Card
            key={asset.path}
            role="listitem"
            aria-label={asset.name}
            variant="outlined"
            sx={{ position: 'relative', borderColor: isSelected ? 'primary.main' : undefined }}
          >
            <CardActionArea
              // Named by what it shows (the name, the dimensions); a file card is a toggle.
              aria-pressed={folder ? undefined : isSelected}
              disabled={!folder && !selectable}
              onClick={() => (folder ? onOpenFolder(asset.path) : onToggle(asset))}
            >
              <AssetThumbnail domain={domain} portal={portal} branch={branch} asset={asset} token={thumbnailToken} />
              <CardContent sx={{ py: 1 }}>
                <Typography variant="body2" noWrap title={asset.name}>
                  {asset.name}
                </Typography>
                {asset.dimensions && (
                  <Typography variant="caption" color="text.secondary">
                    {asset.dimensions}
                  </Typography>
                )}
                {protectedLabel(asset) && (
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    component="div"
                    noWrap
                    title={protectedLabel(asset) ?? ''}
                  >
                    {protectedLabel(asset)}
                  </Typography>
                )}
              </CardContent>
            </CardActionArea>
            {!folder && onEdit && (
              <Box sx={{ position: 'absolute', top: 4, left: 4, bgcolor: 'background.paper', borderRadius: 1 }}>
                <EditAction asset={asset} onEdit={onEdit} />
              </Box>
            )}
            {markOf && (
              <Box sx={{ position: 'absolute', bottom: 8, right: 8, display: 'flex', gap: 0.5, alignItems: 'center' }}>
                {markOf(asset)}
              </Box>
            )}
            {!folder && selectable && (
              <Checkbox
                checked={isSelected}
                onChange={() => onToggle(asset)}
                slotProps={{ input: { 'aria-label': `Select ${asset.name}` } }}
                sx={{ position: 'absolute', top: 4, right: 4, bgcolor: 'background.paper' }}
              />
            )}
          </Card>
        );
      })}
    </Box>
  );
}
