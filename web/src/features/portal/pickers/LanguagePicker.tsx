import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { useLocation, useNavigate } from 'react-router';
import type { SelectorPickerProps } from '../../../core/registry';
import { parsePortalRoute, portalRoutePath } from '../../../core/portalChain';
import { useSelectionStore } from '../../../core/selectionStore';
import { languageName } from '../../../lib/languages';
import { PickerPopover } from '../../../ui/PickerPopover';

/** Select Language (spec 1 §2.3): the portal's languages; choosing one rewrites the URL's language, keeping the screen. */
export default function LanguagePicker({ anchorEl, onClose }: SelectorPickerProps) {
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const info = useSelectionStore((s) => s.portalInfo);
  const branch = useSelectionStore((s) => s.branch);
  const current = useSelectionStore((s) => s.language);
  const navigate = useNavigate();
  const location = useLocation();
  const languages = info?.languages ?? [];
  return (
    <PickerPopover
      anchorEl={anchorEl}
      onClose={onClose}
      label="Select Language"
      paperSx={{ width: 240, maxHeight: 560 }}
    >
      <List dense aria-label="Languages">
        {languages.map((language) => (
          <ListItemButton
            key={language}
            selected={language === current}
            onClick={() => {
              onClose();
              if (!domain || !portal || !branch || language === current) return;
              const route = parsePortalRoute(location.pathname);
              void navigate(
                `${portalRoutePath(domain.id, portal.id, branch, language, route?.rest ?? 'dashboard')}${location.search}`,
              );
            }}
          >
            <ListItemText
              primary={languageName(language) ?? language}
              secondary={language === info?.defaultLanguage ? `${language} · Default` : language}
            />
          </ListItemButton>
        ))}
      </List>
    </PickerPopover>
  );
}
