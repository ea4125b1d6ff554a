import AppBar from '@mui/material/AppBar';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import MenuIcon from '@mui/icons-material/Menu';
import MoreHorizIcon from '@mui/icons-material/MoreHoriz';
import Box from '@mui/material/Box';
import Popover from '@mui/material/Popover';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useLocation } from 'react-router';
import { breadcrumbTrail } from './breadcrumbs';
import { useSelectionStore } from '../../core/selectionStore';
import { ProfileMenu } from './ProfileMenu';
import { headerActions } from '../../core/registry';
import IconButton from '@mui/material/IconButton';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import type { ProbeConfig, ProbeLink } from '../../api/types';
import { useSessionStore } from '../../core/sessionStore';
import { HeaderPopover, useHeaderPopover } from '../../ui/HeaderPopover';
import { useState } from 'react';

/** Below MUI's `md` breakpoint (900 px): a phone or a narrow window. */
export const NARROW_SCREEN = '(max-width:899.95px)';

/** How many of the last crumbs stay shown when the middle ones collapse (wide / narrow screens). */
export const SHOWN_LAST_WIDE = 3;
export const SHOWN_LAST_NARROW = 1;

/**
 * Which crumbs show: the root, an ellipsis for the middle ones (listed in its popover), and
 * the last `keepLast`. A trail short enough shows whole.
 */
export function collapseCrumbs(crumbs: string[], keepLast: number): { shown: string[]; hidden: string[] } {
  if (crumbs.length <= keepLast + 2) return { shown: crumbs, hidden: [] };
  return {
    shown: [crumbs[0], ...crumbs.slice(crumbs.length - keepLast)],
    hidden: crumbs.slice(1, crumbs.length - keepLast),
  };
}

/**
 * The header's breadcrumbs (spec 1 §2.1): one line that stays readable. The middle crumbs
 * collapse behind an ellipsis button whose popover lists the whole path; a crumb longer than
 * its room ends with '…' and tells its full text on hover.
 */
export function HeaderBreadcrumbs({ crumbs, narrow }: { crumbs: string[]; narrow: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { shown, hidden } = collapseCrumbs(crumbs, narrow ? SHOWN_LAST_NARROW : SHOWN_LAST_WIDE);
  const last = crumbs.length - 1;
  const crumb = (text: string, index: number) => (
    <Typography
      key={`${index}-${text}`}
      color={index === last ? 'text.primary' : 'text.secondary'}
      aria-current={index === last ? 'page' : undefined}
      title={text}
      noWrap
      sx={{ maxWidth: index === last ? 260 : 180 }}
    >
      {text}
    </Typography>
  );
  const items = [crumb(shown[0], 0)];
  if (hidden.length > 0) {
    items.push(
      <IconButton
        key="ellipsis"
        size="small"
        aria-label={`Show the full path (${hidden.length} more)`}
        aria-haspopup="dialog"
        aria-expanded={anchor ? 'true' : 'false'}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ py: 0, px: 0.5, borderRadius: 1 }}
      >
        <MoreHorizIcon fontSize="small" />
      </IconButton>,
    );
  }
  shown.slice(1).forEach((text, i) => items.push(crumb(text, crumbs.length - (shown.length - 1) + i)));
  return (
    <>
      <Breadcrumbs
        aria-label="Breadcrumbs"
        separator={<NavigateNextIcon fontSize="small" />}
        sx={{
          flex: '1 1 auto',
          minWidth: 0,
          '& .MuiBreadcrumbs-ol': { flexWrap: 'nowrap' },
          '& .MuiBreadcrumbs-li': { minWidth: 0 },
          // The current screen's crumb gives way first; the others are short (at most 180 px).
          '& .MuiBreadcrumbs-li:not(:last-child)': { flexShrink: 0 },
          '& .MuiBreadcrumbs-separator': { mx: 0.25 },
        }}
      >
        {items}
      </Breadcrumbs>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { role: 'dialog', 'aria-label': 'Full path', sx: { p: 1.5, maxWidth: 360 } } }}
      >
        <Box component="ol" aria-label="Full path" sx={{ m: 0, pl: 2.5 }}>
          {crumbs.map((text, index) => (
            <Typography
              component="li"
              key={`${index}-${text}`}
              color={index === last ? 'text.primary' : 'text.secondary'}
              sx={{ py: 0.25, overflowWrap: 'anywhere' }}
            >
              {text}
            </Typography>
          ))}
        </Box>
      </Popover>
    </>
  );
}

/**
 * The header bar: breadcrumbs, the registered header actions (core/registry), the documentation
 * and profile menus. Below the `md` breakpoint the side navigation is a drawer opened from the
 * header's menu button (`onOpenNav`), and the actions take a second row under the crumbs.
 */
export function Header({ onOpenNav }: { onOpenNav?: () => void } = {}) {
  const { pathname } = useLocation();
  const domain = useSelectionStore((s) => s.domain);
  const portal = useSelectionStore((s) => s.portal);
  const narrow = useMediaQuery(NARROW_SCREEN, { noSsr: true });
  const trail = breadcrumbTrail(pathname, { domain, portal });
  const crumbs = [trail.root, ...trail.segments];
  return (
    <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ gap: { xs: 0.5, md: 2 }, flexWrap: { xs: 'wrap', md: 'nowrap' }, py: { xs: 0.5, md: 0 } }}>
        {narrow && onOpenNav && (
          <IconButton aria-label="Open navigation" edge="start" onClick={onOpenNav}>
            <MenuIcon />
          </IconButton>
        )}
        <Box
          sx={{ display: 'flex', flex: { xs: '1 1 calc(100% - 56px)', md: '1 1 auto' }, minWidth: { xs: 0, md: 200 } }}
        >
          <HeaderBreadcrumbs crumbs={crumbs} narrow={narrow} />
        </Box>
        <Box
          data-testid="header-actions"
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: { xs: 0.5, md: 2 },
            flex: { xs: '1 1 100%', md: '0 1 auto' },
            minWidth: 0,
          }}
        >
          {headerActions().map(({ id, Component }) => (
            <Component key={id} />
          ))}
          <DocumentationMenu />
          <ProfileMenu />
        </Box>
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
  const menu = useHeaderPopover();
  const sections = documentationSections(config);
  if (sections.length === 0) return null;
  return (
    <HeaderPopover
      control={menu}
      label="Documentation"
      tooltip="Documentation"
      icon={<MenuBookOutlinedIcon />}
      kind="menu"
      paperSx={{ minWidth: 240 }}
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
            onClick={menu.close}
          >
            {link.title}
          </MenuItem>
        )),
      ])}
    </HeaderPopover>
  );
}
