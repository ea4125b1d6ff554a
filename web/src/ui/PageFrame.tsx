import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface PageFrameProps {
  /** The screen's h1. */
  title: ReactNode;
  /** A small line above the title naming the kind of screen ('Domain', 'Portal Dashboard'). */
  overline?: ReactNode;
  /** Shown before the title (a logo). */
  leading?: ReactNode;
  /** Shown right after the title (a status chip). */
  badge?: ReactNode;
  /** A breadcrumb trail or back link shown above the title. */
  breadcrumbs?: ReactNode;
  /** A line of text under the title. */
  intro?: ReactNode;
  /** Buttons at the right of the title (the screen's primary actions). */
  actions?: ReactNode;
  children: ReactNode;
}

/** The frame of a screen: breadcrumbs slot, an h1 title with actions, an optional intro, the content. */
export function PageFrame({ title, overline, leading, badge, breadcrumbs, intro, actions, children }: PageFrameProps) {
  return (
    <Stack spacing={3}>
      {breadcrumbs}
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        {leading}
        <Stack sx={{ flex: 1 }}>
          {overline && (
            <Typography variant="overline" color="text.secondary">
              {overline}
            </Typography>
          )}
          <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
            {/* Focusable by script: the skip link and a route change put the focus here. */}
            <Typography variant="h4" component="h1" tabIndex={-1}>
              {title}
            </Typography>
            {badge}
          </Stack>
        </Stack>
        {actions && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {actions}
          </Stack>
        )}
      </Stack>
      {intro && <Typography color="text.secondary">{intro}</Typography>}
      {children}
    </Stack>
  );
}
