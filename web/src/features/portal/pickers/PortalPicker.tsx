import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import FlightIcon from '@mui/icons-material/Flight';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import PersonOutlinedIcon from '@mui/icons-material/PersonOutlined';
import PublicIcon from '@mui/icons-material/Public';
import WebAssetIcon from '@mui/icons-material/WebAsset';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { portalApi, portalKeys, type Portal, type PortalScope, type PortalType } from '../../../api/portal';
import type { SelectorPickerProps } from '../../../core/registry';
import { useSelectionStore } from '../../../core/selectionStore';
import { PickerPopover, pickerWaiting } from '../../../ui/PickerPopover';
import { isInactivePortal, portalTree, type PortalSort } from './tree';

/** spec 1 §9: the portal popover is at most 560 px high. */
export const PORTAL_POPOVER_MAX_HEIGHT = 560;

const SCOPE: Record<PortalScope, { label: string; icon: ReactNode }> = {
  FULL: { label: 'Full', icon: <PublicIcon fontSize="small" /> },
  MICROSITE: { label: 'Microsite', icon: <WebAssetIcon fontSize="small" /> },
  CAPTIVE: { label: 'Captive', icon: <LockOutlinedIcon fontSize="small" /> },
};
const TYPE: Record<PortalType, { label: string; icon: ReactNode }> = {
  CREW: { label: 'Crew', icon: <FlightIcon fontSize="small" /> },
  PASSENGER: { label: 'Passenger', icon: <PersonOutlinedIcon fontSize="small" /> },
};

function PortalRow({ portal, selected, onPick }: { portal: Portal; selected: boolean; onPick: () => void }) {
  const inactive = isInactivePortal(portal);
  const scope = SCOPE[portal.scope] ?? SCOPE.FULL;
  const type = TYPE[portal.type] ?? TYPE.CREW;
  return (
    <ListItemButton selected={selected} onClick={onPick} sx={{ pl: 4, opacity: inactive ? 0.55 : 1 }}>
      <ListItemIcon sx={{ minWidth: 32 }} aria-hidden>
        {type.icon}
      </ListItemIcon>
      <ListItemText
        primary={portal.name}
        secondary={`${type.label} · ${scope.label}${inactive ? ' · Inactive' : ''}`}
        slotProps={{ primary: { sx: { textDecoration: inactive ? 'line-through' : undefined } } }}
      />
      <Tooltip title={`Scope: ${scope.label}`}>
        <Box
          component="span"
          aria-label={`Scope ${scope.label}`}
          sx={{ display: 'inline-flex', color: 'text.secondary' }}
        >
          {scope.icon}
        </Box>
      </Tooltip>
    </ListItemButton>
  );
}

function Legend() {
  return (
    <Stack
      direction="row"
      spacing={1.5}
      useFlexGap
      sx={{ flexWrap: 'wrap', px: 2, py: 1, color: 'text.secondary' }}
      aria-label="Legend"
    >
      {[...Object.values(TYPE), ...Object.values(SCOPE)].map((item) => (
        <Stack key={item.label} direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          {item.icon}
          <Typography variant="caption">{item.label}</Typography>
        </Stack>
      ))}
    </Stack>
  );
}

/** Select Portal (spec 1 §2.3): the domain's portals by category; choosing one opens its dashboard. */
export default function PortalPicker({ anchorEl, onClose }: SelectorPickerProps) {
  const domain = useSelectionStore((s) => s.domain);
  const current = useSelectionStore((s) => s.portal);
  const navigate = useNavigate();
  const [sort, setSort] = useState<PortalSort>('alphabetical');
  const domainId = domain?.id ?? '';
  const categories = useQuery({
    queryKey: portalKeys.categorized(domainId),
    queryFn: () => portalApi.categorized(domainId),
    enabled: !!domain,
  });

  let body = pickerWaiting(categories, 'Loading Portals');
  if (categories.isSuccess) {
    const tree = portalTree(categories.data, sort);
    body =
      tree.length === 0 ? (
        <Typography sx={{ p: 2 }}>No portals available</Typography>
      ) : (
        <List dense aria-label="Portals" sx={{ overflowY: 'auto', flex: 1 }}>
          {tree.map((category) => (
            <li key={`${category.id}-${category.name}`} aria-label={category.name}>
              <ul style={{ padding: 0 }}>
                <ListSubheader
                  data-deactivated={category.deactivated || undefined}
                  sx={{
                    fontWeight: 700,
                    color: category.deactivated ? 'text.disabled' : 'text.primary',
                    fontStyle: category.deactivated ? 'italic' : undefined,
                  }}
                >
                  {category.name}
                </ListSubheader>
                {category.children.map((portal) => (
                  <PortalRow
                    key={portal.id}
                    portal={portal}
                    selected={!!current && String(current.id) === String(portal.id)}
                    onPick={() => {
                      onClose();
                      void navigate(`/domain/${encodeURIComponent(String(domainId))}/portal/${portal.id}`);
                    }}
                  />
                ))}
              </ul>
            </li>
          ))}
        </List>
      );
  }

  return (
    <PickerPopover
      anchorEl={anchorEl}
      onClose={onClose}
      label="Select Portal"
      paperSx={{ width: 340, maxHeight: PORTAL_POPOVER_MAX_HEIGHT, display: 'flex', flexDirection: 'column' }}
    >
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1 }}>
        <Typography variant="subtitle2">Sort</Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={sort}
          onChange={(_, value: PortalSort | null) => value && setSort(value)}
          aria-label="Sort portals"
        >
          <ToggleButton value="alphabetical">Alphabetical</ToggleButton>
          <ToggleButton value="lastModified">Last Modified</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      <Divider />
      {body}
      <Divider />
      <Legend />
    </PickerPopover>
  );
}
