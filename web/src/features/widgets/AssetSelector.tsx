/**
 * The asset selector field widget (spec 2 §2 "Other field widgets"): the chosen asset's thumbnail
 * (240 wide, spec 2 §9) and its dimensions, with a button that opens the asset selection mode
 * (features/assets AssetPicker). The image picker is this widget with the images variant: an
 * empty value shows the missing-image placeholder and, when required, blocks saving.
 */
import BrokenImageIcon from '@mui/icons-material/BrokenImageOutlined';
import FileIcon from '@mui/icons-material/InsertDriveFileOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { assetApi, assetKeys, hasThumbnail, thumbnailUrl, useThumbnailToken, WIDE_THUMBNAIL } from '../../api/assets';
import type { Id } from '../../api/portal';
import { useSelectionStore } from '../../core/selectionStore';
import { AssetPicker, type PickerVariant } from '../assets';
import { assetLink } from './links/model';
import { WIDGET_MESSAGES } from './messages';

export interface AssetSelectorProps {
  domainId: Id;
  portalId: Id;
  /** The asset path ('images/logo.png'; a leading slash is accepted); '' for none. */
  value: string;
  onChange: (path: string) => void;
  label: string;
  variant?: PickerVariant;
  required?: boolean;
  disabled?: boolean;
  /** Show the image's width x height (default true). */
  showDimensions?: boolean;
}

const PICK_LABELS: Record<PickerVariant, string> = {
  image: 'Select Image',
  pdf: 'Select PDF Document',
  word: 'Select Word Document',
  any: 'Select Asset',
};

const nameOf = (path: string) => path.split('/').pop() ?? path;
const absolute = (path: string) => (path.startsWith('/') ? path : `/${path}`);

export function AssetSelector({
  domainId,
  portalId,
  value,
  onChange,
  label,
  variant = 'any',
  required,
  disabled,
  showDimensions = true,
}: AssetSelectorProps) {
  const [picking, setPicking] = useState(false);
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null);
  const branch = useSelectionStore((s) => s.branch ?? '');
  const path = value ? absolute(value) : '';
  const image = !!path && hasThumbnail({ name: nameOf(path), type: '' });
  const token = useThumbnailToken(domainId, portalId, image);
  const info = useQuery({
    queryKey: assetKeys.info(domainId, portalId, path),
    queryFn: () => assetApi.info(domainId, portalId, path),
    enabled: image && showDimensions,
    retry: false,
  });
  const url = image && token ? thumbnailUrl(domainId, portalId, branch, path, token, WIDE_THUMBNAIL) : null;
  const missing = required && !value;

  return (
    <Stack spacing={1} role="group" aria-label={label}>
      <Typography variant="body2" color={missing ? 'error' : 'text.secondary'}>
        {label}
        {required ? ' *' : ''}
      </Typography>
      <Box
        sx={{
          width: 240,
          minHeight: 120,
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'action.hover',
        }}
      >
        {url && brokenUrl !== url ? (
          <img
            src={url}
            alt={nameOf(path)}
            onError={() => setBrokenUrl(url)}
            style={{ maxWidth: '100%', objectFit: 'contain' }}
          />
        ) : !value || image || variant === 'image' ? (
          <BrokenImageIcon
            sx={{ fontSize: 72 }}
            color="disabled"
            titleAccess={WIDGET_MESSAGES.missingImage}
            data-testid="missing-image"
          />
        ) : (
          <FileIcon sx={{ fontSize: 72 }} color="disabled" aria-hidden />
        )}
      </Box>
      <Typography variant="body2" aria-label="Asset path">
        {value || WIDGET_MESSAGES.noAssetChosen}
      </Typography>
      {showDimensions && info.data && info.data.width > 0 && (
        <Typography variant="body2" aria-label="Dimensions">
          {info.data.width} x {info.data.height}
        </Typography>
      )}
      {missing && <FormHelperText error>{WIDGET_MESSAGES.fieldRequired}</FormHelperText>}
      <Stack direction="row" spacing={1}>
        <Button variant="outlined" size="small" disabled={disabled} onClick={() => setPicking(true)}>
          {PICK_LABELS[variant]}
        </Button>
        {value && !disabled && (
          <Button size="small" onClick={() => onChange('')}>
            Remove
          </Button>
        )}
      </Stack>
      {picking && (
        <AssetPicker
          domain={domainId}
          portal={portalId}
          variant={variant}
          onSelect={(assets) => {
            if (assets[0]) onChange(assetLink(assets[0].path));
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      )}
    </Stack>
  );
}

export type ImagePickerProps = Omit<AssetSelectorProps, 'variant'>;

/** The image picker (.png .jpg .jpeg .gif .webp, single selection; spec 2 §5). */
export function ImagePicker(props: ImagePickerProps) {
  return <AssetSelector {...props} variant="image" />;
}
