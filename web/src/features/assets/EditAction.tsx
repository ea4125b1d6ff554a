import EditIcon from '@mui/icons-material/EditOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { isFolder, isProtected, type Asset } from '../../api/assets';
import type { FileEditorProps } from '../../core/registry';

/** How a file opens for editing: a JSON form, its source, or not at all. */
export type EditMode = FileEditorProps['mode'];

/**
 * The editor a file opens in (spec 2 §2, §5): JSON files in the JSON editor when they have a
 * companion schema (canEdit from the server: 'Can not edit, no Schema file', the microsite
 * rule), other text files in the source editor; binaries in none.
 */
export function editModeOf(asset: Asset): EditMode | null {
  if (isFolder(asset) || isProtected(asset)) return null; // links, submodules, LFS objects: never

  if (asset.name.toLowerCase().endsWith('.json')) return 'json';
  return asset.canEdit?.editable ? 'source' : null;
}

/** The Edit button of a file: disabled with the server's reason when the file cannot be edited. */
export function EditAction({ asset, onEdit }: { asset: Asset; onEdit: (asset: Asset) => void }) {
  const mode = editModeOf(asset);
  if (!mode) return null;
  const editable = asset.canEdit?.editable ?? false;
  const label = mode === 'json' ? `JSON Edit ${asset.name}` : `Edit ${asset.name}`;
  const reason = editable ? label : asset.canEdit?.toolTipMessage || label;
  return (
    <Tooltip title={reason}>
      {/* A disabled button gets no pointer events: the span keeps the tooltip. */}
      <span>
        <IconButton size="small" aria-label={label} disabled={!editable} onClick={() => onEdit(asset)}>
          <EditIcon fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
  );
}
