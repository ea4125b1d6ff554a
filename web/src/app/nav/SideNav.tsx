import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { Children, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Logo } from '../../ui/Logo';
import { focusRingColor } from '../../ui/theme';
import { selectorPicker } from '../../core/registry';
import { shortVersion } from '../version/version';
import { VersionDialog } from '../version/VersionDialog';
import { PortalChainHost } from '../selection/PortalChainHost';
import { DomainSelector } from './DomainSelector';
import {
  ADMIN_MENU,
  branchSelectLabel,
  DOMAIN_MENU,
  isAdminGroupVisible,
  isManageDomainVisible,
  isManagePortalVisible,
  isPortalGroupVisible,
  languageSelectLabel,
  pageSelectLabel,
  PORTAL_MENU,
  portalGroupLabel,
  portalSelectLabel,
  visibleEntries,
  visiblePortalSelectors,
  type MenuEntry,
  type NavContext,
  type PortalSelectorKind,
} from '../../core/menus';
import { NavSelectButton } from './NavSelectButton';
import './registerPageSelector';
import { useNavContext } from '../../core/useNavContext';

export const SIDE_NAV_WIDTH = 260; // spec 1 §9: at least 240 px

const SELECTOR_TEXT: Record<
  PortalSelectorKind,
  { label: string; value: (ctx: NavContext) => string; empty: (ctx: NavContext) => boolean }
> = {
  portal: { label: 'Select Portal', value: portalSelectLabel, empty: (c) => !c.portal },
  branch: { label: 'Select Branch', value: branchSelectLabel, empty: (c) => !c.branch },
  language: { label: 'Select Language', value: languageSelectLabel, empty: (c) => !c.language },
  page: { label: 'Select Page', value: pageSelectLabel, empty: (c) => !c.page },
};

/** The side navigation (spec 1 §2.3): logo, Domain, Portal and Administration groups, version. */
export function SideNav() {
  const ctx = useNavContext();
  const navigate = useNavigate();
  const [versionOpen, setVersionOpen] = useState(false);

  return (
    <Box
      component="nav"
      aria-label="Side navigation"
      sx={{
        width: SIDE_NAV_WIDTH,
        minWidth: 240,
        flexShrink: 0,
        bgcolor: '#0b2545',
        color: '#fff',
        display: 'flex',
        flexDirection: 'column',
        position: 'sticky',
        top: 0,
        height: '100vh',
        overflowY: 'auto',
        ...focusRingColor('#fff'), // on the dark navigation
      }}
    >
      <ButtonBase
        aria-label="Portalwright home"
        onClick={() => navigate('/')}
        sx={{ justifyContent: 'flex-start', px: 2, py: 2 }}
      >
        <Logo size={32} />
      </ButtonBase>
      <Divider sx={{ borderColor: 'rgba(255,255,255,0.12)' }} />

      <NavGroup label="Domain">
        <DomainSelector ctx={ctx} />
        {isManageDomainVisible(ctx) && (
          <ManageMenu label="Manage Domain" entries={visibleEntries(DOMAIN_MENU, ctx)} ctx={ctx} />
        )}
      </NavGroup>

      {isPortalGroupVisible(ctx) && (
        <NavGroup label={portalGroupLabel(ctx)}>
          {visiblePortalSelectors(ctx).map((kind) => (
            <RegisteredSelector key={kind} kind={kind} ctx={ctx} />
          ))}
          {isManagePortalVisible(ctx) && (
            <ManageMenu label="Manage Portal" entries={visibleEntries(PORTAL_MENU, ctx)} ctx={ctx} />
          )}
        </NavGroup>
      )}

      {isAdminGroupVisible(ctx) && (
        <NavGroup label="Administration">
          {visibleEntries(ADMIN_MENU, ctx).map((entry) => (
            <ListItemButton key={entry.id} onClick={() => navigate(entry.path(ctx))} sx={{ borderRadius: 1, mx: 1 }}>
              <ListItemText primary={entry.label} slotProps={{ primary: { sx: { fontWeight: 600, fontSize: 14 } } }} />
            </ListItemButton>
          ))}
        </NavGroup>
      )}

      <Box sx={{ flex: 1 }} />
      <Box sx={{ px: 2, py: 1.5 }}>
        <Button
          aria-label={`Version ${shortVersion(__APP_VERSION__)}`}
          size="small"
          onClick={() => setVersionOpen(true)}
          sx={{ color: 'rgba(255,255,255,0.7)', textTransform: 'none', fontFamily: 'monospace' }}
        >
          {shortVersion(__APP_VERSION__)}
        </Button>
      </Box>
      <VersionDialog open={versionOpen} onClose={() => setVersionOpen(false)} />
      <PortalChainHost />
    </Box>
  );
}

function NavGroup({ label, children }: { label: string; children: ReactNode }) {
  const id = `nav-group-${label.replace(/\s+/g, '-').toLowerCase()}`;
  return (
    <List
      aria-labelledby={id}
      subheader={
        <ListSubheader
          id={id}
          disableSticky
          sx={{
            bgcolor: 'transparent',
            color: 'rgba(255,255,255,0.6)',
            textTransform: 'uppercase',
            fontSize: 12,
            letterSpacing: 1,
          }}
        >
          {label}
        </ListSubheader>
      }
    >
      {/* a list's children are list items (axe "list"): each entry goes in its own <li> */}
      {Children.toArray(children).map((child, i) => (
        <Box component="li" key={i} sx={{ listStyle: 'none' }}>
          {child}
        </Box>
      ))}
    </List>
  );
}

function ManageMenu({ label, entries, ctx }: { label: string; entries: MenuEntry[]; ctx: NavContext }) {
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <NavSelectButton label={label} popup="menu" expanded={!!anchor} onClick={(e) => setAnchor(e.currentTarget)} />
      <Menu
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {entries.map((entry) => (
          <MenuItem
            key={entry.id}
            onClick={() => {
              setAnchor(null);
              navigate(entry.path(ctx));
            }}
          >
            {entry.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

function RegisteredSelector({ kind, ctx }: { kind: PortalSelectorKind; ctx: NavContext }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const Picker = selectorPicker(kind);
  if (!Picker) return null;
  const text = SELECTOR_TEXT[kind];
  return (
    <>
      <NavSelectButton
        label={text.label}
        value={text.value(ctx)}
        empty={text.empty(ctx)}
        popup="dialog"
        expanded={!!anchor}
        onClick={(e) => setAnchor(e.currentTarget)}
      />
      {anchor && <Picker anchorEl={anchor} onClose={() => setAnchor(null)} />}
    </>
  );
}
