/**
 * Screens that work signed in or out (spec 1 §2.1, §2.5): not found, service
 * unavailable, scheduled maintenance and browser not supported. "Home" is the
 * root route for a signed-in user and a full reload of the base path otherwise.
 */
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { basePath } from '../../core/location';
import { selectIsLoggedIn, useSessionStore } from '../../core/sessionStore';
import { FullScreenMessage } from './FullScreenMessage';
import { BrokenWindowIllustration } from './Illustration';

function HomeLink({ children }: { children: ReactNode }) {
  const loggedIn = useSessionStore(selectIsLoggedIn);
  return loggedIn ? (
    <Link component={RouterLink} to="/">
      {children}
    </Link>
  ) : (
    <Link href={basePath()}>{children}</Link>
  );
}

function HomeButton({ children }: { children: ReactNode }) {
  const loggedIn = useSessionStore(selectIsLoggedIn);
  return loggedIn ? (
    <Button variant="contained" component={RouterLink} to="/">
      {children}
    </Button>
  ) : (
    <Button variant="contained" href={basePath()}>
      {children}
    </Button>
  );
}

export function NotFoundScreen() {
  return (
    <FullScreenMessage title="404">
      <Typography variant="h5" component="p">
        page not found
      </Typography>
      <Typography color="text.secondary">The page you asked for does not exist or has moved.</Typography>
      <HomeLink>Go home</HomeLink>
    </FullScreenMessage>
  );
}

export function ServiceUnavailableScreen() {
  return (
    <FullScreenMessage title="Service Unavailable" actions={<HomeButton>Try again</HomeButton>}>
      <Typography color="text.secondary">
        The service is temporarily unavailable. Please try again in a few minutes.
      </Typography>
    </FullScreenMessage>
  );
}

export function MaintenanceScreen() {
  return (
    <FullScreenMessage title="Scheduled Maintenance" actions={<HomeButton>Go home</HomeButton>}>
      <Typography color="text.secondary">We are down for scheduled maintenance. Please check back later.</Typography>
    </FullScreenMessage>
  );
}

export function BrowserNotSupportedScreen() {
  return (
    <FullScreenMessage title="Browser not supported" illustration={<BrokenWindowIllustration />}>
      <Typography color="text.secondary">
        Portalwright works in Google Chrome and Mozilla Firefox. Please open it in one of these browsers.
      </Typography>
      <Typography>
        <Link href="https://www.google.com/chrome/" target="_blank" rel="noopener noreferrer">
          Get Google Chrome
        </Link>
        {' · '}
        <Link href="https://www.mozilla.org/firefox/" target="_blank" rel="noopener noreferrer">
          Get Mozilla Firefox
        </Link>
      </Typography>
    </FullScreenMessage>
  );
}
