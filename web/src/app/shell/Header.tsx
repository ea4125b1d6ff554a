import AppBar from '@mui/material/AppBar';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import { useLocation } from 'react-router';
import { breadcrumbTrail } from './breadcrumbs';
import { useSelectionStore } from '../selection/selectionStore';
import { ProfileMenu } from './ProfileMenu';
import { headerActions } from '../registry';
import IconButton from '@mui/material/IconButton';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import type { ProbeConfig, ProbeLink } from '../../api/types';
import { useSessionStore } from '../session/sessionStore';
import { useState } from 'react';

/** The header bar: breadcrumbs, the registered header actions (app/registry), the documentation and profile menus. */
export function Header() {
  const { pathname } = useLocation();
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const trail = breadcrumbTrail(pathname, { domain, portal });
  const crumbs = [trail.root, ...trail.segments];
  return (
    <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ gap: 2 }}>
        <Breadcrumbs
          aria-label="Breadcrumbs"
          separator={<NavigateNextIcon fontSize="small" />}
          // One line: with the header's actions (the 480 px search box) the crumbs shrink with an
          // ellipsis rather than wrap.
          sx={{
            flex: 1,
            minWidth: 0,
            '& .MuiBreadcrumbs-ol': { flexWrap: 'nowrap' },
            '& .MuiBreadcrumbs-li': { minWidth: 0 },
          }}
        >
          {crumbs.map((crumb, index) => (
            <Typography
              key={`${index}-${crumb}`}
              color={index === crumbs.length - 1 ? 'text.primary' : 'text.secondary'}
              aria-current={index === crumbs.length - 1 ? 'page' : undefined}
              noWrap
            >
              {crumb}
            </Typography>
          ))}
        </Breadcrumbs>
        {headerActions().map(({ id, Component }) => (
          <Component key={id} />
        ))}
        <DocumentationMenu />
        <ProfileMenu />
      </Toolbar>
    </AppBar>
  );
}

const SECTIONS = [
  ['documentation', 'Documentation'],
  ['legalDocs', 'Legal'],
  ['links', 'Links'],
] as const;

const usable = (links: unknown): ProbeLink[] =>
  Array.isArray(links)
    ? links.filter(
        (l): l is ProbeLink =>
          !!l && typeof l === 'object' && typeof l.title === 'string' && typeof l.url === 'string' && l.url !== '',
      )
    : [];

/** The sections of the documentation menu that have links (spec 1 §2.5, probe configuration). */
export function documentationSections(config: ProbeConfig | null) {
  return SECTIONS.map(([key, label]) => ({ key, label, links: usable(config?.[key]) })).filter(
    (s) => s.links.length > 0,
  );
}

/** Documentation menu: the configured links; not displayed at all when none are configured. */
export function DocumentationMenu() {
  const config = useSessionStore((s) => s.probeConfig);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const sections = documentationSections(config);
  if (sections.length === 0) return null;
  return (
    <>
      <Tooltip title="Documentation">
        <IconButton
          aria-label="Documentation"
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <MenuBookOutlinedIcon />
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 240 } } }}
      >
        {sections.flatMap((section) => [
          <ListSubheader key={`${section.key}-header`} sx={{ lineHeight: '32px' }}>
            {section.label}
          </ListSubheader>,
          ...section.links.map((link, index) => (
            <MenuItem
              key={`${section.key}-${index}`}
              component="a"
              href={link.url}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => setAnchor(null)}
            >
              {link.title}
            </MenuItem>
          )),
        ])}
      </Menu>
    </>
  );
}
