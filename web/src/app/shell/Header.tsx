import AppBar from '@mui/material/AppBar';
import Breadcrumbs from '@mui/material/Breadcrumbs';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import NavigateNextIcon from '@mui/icons-material/NavigateNext';
import { useLocation } from 'react-router';
import { breadcrumbTrail } from './breadcrumbs';
import { ProfileMenu } from './ProfileMenu';

/** The header bar: breadcrumbs and the profile menu. */
export function Header() {
  const { pathname } = useLocation();
  const trail = breadcrumbTrail(pathname);
  const crumbs = [trail.root, ...trail.segments];
  return (
    <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ gap: 2 }}>
        <Breadcrumbs
          aria-label="Breadcrumbs"
          separator={<NavigateNextIcon fontSize="small" />}
          sx={{ flex: 1, minWidth: 0 }}
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
        <ProfileMenu />
      </Toolbar>
    </AppBar>
  );
}
