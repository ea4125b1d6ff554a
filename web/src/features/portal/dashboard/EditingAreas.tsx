import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { PORTAL_MENU, visibleEntries, type MenuEntry, type NavContext } from '../../../core/menus';
import { useNavContext } from '../../../core/useNavContext';

export const EDITING_AREAS_TITLE = 'Work on this portal';

/**
 * The portal's editing areas: the Portal menu's entries that are registered, permitted and not
 * hidden by their rule (core/menus.ts), except the dashboard itself. A feature that
 * registers its route (File Explorer, Page Manager, …) appears here as it lands.
 */
export function editingAreas(ctx: NavContext): MenuEntry[] {
  return visibleEntries(PORTAL_MENU, ctx).filter((entry) => entry.id !== 'portal.dashboard');
}

export function EditingAreas() {
  const ctx = useNavContext();
  const entries = editingAreas(ctx);
  if (entries.length === 0) return null;
  return (
    <Card variant="outlined" component="section" aria-labelledby="editing-areas-title">
      <CardContent>
        <Typography id="editing-areas-title" variant="h6" component="h2" gutterBottom>
          {EDITING_AREAS_TITLE}
        </Typography>
        <Stack
          component="ul"
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ flexWrap: 'wrap', m: 0, p: 0, listStyle: 'none' }}
        >
          {entries.map((entry) => (
            <li key={entry.id}>
              <Button variant="outlined" component={RouterLink} to={entry.path(ctx)}>
                {entry.label}
              </Button>
            </li>
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}
