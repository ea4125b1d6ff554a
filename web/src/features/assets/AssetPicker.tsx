import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { assetApi, assetKeys, type Asset } from '../../api/assets';
import { useSelectionStore } from '../../core/selectionStore';
import { AssetBrowser } from './AssetBrowser';
import { pickerShows, type PickerVariant } from './pickerFilters';
import { useAssetSort } from './useAssetSort';

export interface AssetPickerProps {
  domain: string | number;
  portal: string | number;
  variant: PickerVariant;
  multiple?: boolean;
  /** Where the tree starts ('/' by default). */
  initialPath?: string;
  onSelect: (assets: Asset[]) => void;
  onClose: () => void;
}

const TITLES: Record<PickerVariant, string> = {
  image: 'Select Image',
  pdf: 'Select PDF Document',
  word: 'Select Word Document',
  any: 'Select Asset',
};

/**
 * Asset selection mode (spec 2 §2): the explorer's tree and grid in a dialog with Select Asset
 * and Close. Folders, dot-files and excluded extensions are hidden; the image variant shows the
 * selected image's dimensions.
 */
export function AssetPicker({
  domain,
  portal,
  variant,
  multiple = false,
  initialPath = '/',
  onSelect,
  onClose,
}: AssetPickerProps) {
  const d = String(domain);
  const p = String(portal);
  const branch = useSelectionStore((s) => s.branch ?? '');
  const [path, setPath] = useState(initialPath);
  const [sort, setSort] = useAssetSort();
  const [view, setView] = useState<'grid' | 'list'>('grid');
  const [selected, setSelected] = useState<Asset[]>([]);
  const selectedPaths = new Set(selected.map((a) => a.path));

  const toggle = (asset: Asset) =>
    setSelected((current) => {
      if (current.some((a) => a.path === asset.path)) return current.filter((a) => a.path !== asset.path);
      return multiple ? [...current, asset] : [asset];
    });

  const changeFolder = (next: string) => {
    setPath(next);
    setSelected([]);
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg">
      <DialogTitle>{TITLES[variant]}</DialogTitle>
      <DialogContent>
        <AssetBrowser
          domain={d}
          portal={p}
          branch={branch}
          path={path}
          onPathChange={changeFolder}
          view={view}
          sort={sort}
          onSortChange={setSort}
          selected={selectedPaths}
          selectable
          onToggle={toggle}
          visible={(asset) => pickerShows(variant, asset)}
        />
        {variant === 'image' && selected.length === 1 && <ImageDimensions domain={d} portal={p} asset={selected[0]} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => setView(view === 'grid' ? 'list' : 'grid')} sx={{ mr: 'auto' }}>
          {view === 'grid' ? 'List view' : 'Grid view'}
        </Button>
        <Button onClick={onClose}>Close</Button>
        <Button variant="contained" disabled={selected.length === 0} onClick={() => onSelect(selected)}>
          Select Asset
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The selected image's width x height (from the folder listing, else the info call). */
function ImageDimensions({ domain, portal, asset }: { domain: string; portal: string; asset: Asset }) {
  const known = asset.width && asset.height ? { width: asset.width, height: asset.height } : null;
  const info = useQuery({
    queryKey: assetKeys.info(domain, portal, asset.path),
    queryFn: () => assetApi.info(domain, portal, asset.path),
    enabled: !known,
  });
  const size = known ?? info.data;
  if (!size) return null;
  return (
    <Typography sx={{ mt: 1 }} aria-label="Dimensions">
      {asset.name}: {size.width} x {size.height}
    </Typography>
  );
}
