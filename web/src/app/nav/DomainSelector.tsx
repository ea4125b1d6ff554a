import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../core/paths';
import { PickerPopover, pickerWaiting } from '../../ui/PickerPopover';
import { useSelectionStore } from '../../core/selectionStore';
import { useDomains } from '../../core/useDomains';
import { domainSelectLabel, type NavContext } from '../../core/menus';
import { NavSelectButton } from './NavSelectButton';

/**
 * 'Select Domain' and its popover (spec 1 §2.3). Choosing a domain opens its dashboard,
 * domain/{id}/dashboard: the URL's domain is the current domain.
 */
export function DomainSelector({ ctx }: { ctx: NavContext }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <NavSelectButton
        label="Select Domain"
        value={domainSelectLabel(ctx)}
        empty={!ctx.domain}
        popup="dialog"
        expanded={!!anchor}
        onClick={(e) => setAnchor(e.currentTarget)}
      />
      <PickerPopover
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        label="Select Domain"
        paperSx={{ width: 300, maxHeight: 560 }}
      >
        {anchor && <DomainList onDone={() => setAnchor(null)} />}
      </PickerPopover>
    </>
  );
}

function DomainList({ onDone }: { onDone: () => void }) {
  const domains = useDomains();
  const current = useSelectionStore((s) => s.domain);
  const navigate = useNavigate();

  if (!domains.isSuccess) return pickerWaiting(domains, 'Loading Domains', 'Failed to load the domains');
  if (domains.data.length === 0) {
    return <Typography sx={{ p: 2 }}>No domains available</Typography>;
  }
  return (
    <List dense aria-label="Domains">
      {domains.data.map((domain) => (
        <ListItemButton
          key={domain.id}
          selected={!!current && String(current.id) === String(domain.id)}
          onClick={() => {
            onDone();
            // The route guard opens the domain ('Opening Domain') and loads its permissions.
            void navigate(paths.domainDashboard(domain.id));
          }}
        >
          <ListItemText primary={domain.name} />
        </ListItemButton>
      ))}
    </List>
  );
}
