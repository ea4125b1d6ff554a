import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface PageFrameProps {
  /** The screen's h1. */
  title: ReactNode;
  /** A breadcrumb trail or back link shown above the title. */
  breadcrumbs?: ReactNode;
  /** A line of text under the title. */
  intro?: ReactNode;
  /** Buttons at the right of the title (the screen's primary actions). */
  actions?: ReactNode;
  children: ReactNode;
}

/** The frame of a screen: breadcrumbs slot, an h1 title with actions, an optional intro, the content. */
export function PageFrame({ title, breadcrumbs, intro, actions, children }: PageFrameProps) {
  return (
    <Stack spacing={3}>
      {breadcrumbs}
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ flex: 1 }}>
          {title}
        </Typography>
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
