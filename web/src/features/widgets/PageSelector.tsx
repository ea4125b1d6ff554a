/**
 * The page selector widget (spec 2 §2 "Page designer and sitemap"): by default a button that
 * opens the sitemap tree in a popover; `variant="dropdown"` a searchable select; `variant="tree"`
 * the tree inline. Pages come from the workspace sitemap (useSitemap) unless `root` is given.
 */
import Button from '@mui/material/Button';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { Id } from '../../api/portal';
import type { SitemapPage } from '../../api/sitemap';
import { Loading } from '../../ui/Loading';
import { WIDGET_MESSAGES } from './messages';
import { PageDropdown } from './PageDropdown';
import { PageTree } from './PageTree';
import { childrenOf, findPage, pageLabel } from './sitemapTree';
import { useSitemap } from './useSitemap';

export interface PageSelectorProps {
  domainId: Id;
  portalId: Id;
  /** The chosen page id. */
  value: string | null;
  onChange: (page: SitemapPage | null) => void;
  variant?: 'popover' | 'dropdown' | 'tree';
  label?: string;
  /** A sitemap already loaded (else it is read with useSitemap). */
  root?: SitemapPage;
  disabled?: boolean;
  required?: boolean;
}

export function PageSelector({
  domainId,
  portalId,
  value,
  onChange,
  variant = 'popover',
  label = 'Page',
  root: given,
  disabled,
  required,
}: PageSelectorProps) {
  const sitemap = useSitemap(domainId, portalId, !given);
  const root = given ?? sitemap.data;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  if (!root) {
    if (sitemap.isError) return <Typography color="error">{WIDGET_MESSAGES.sitemapFailed}</Typography>;
    return <Loading label="Loading the sitemap" />;
  }
  if (childrenOf(root).length === 0 && variant !== 'tree') {
    return <Typography color="text.secondary">{WIDGET_MESSAGES.emptySitemap}</Typography>;
  }
  if (variant === 'dropdown') {
    return (
      <PageDropdown
        root={root}
        value={value}
        onChange={onChange}
        label={label}
        disabled={disabled}
        required={required}
      />
    );
  }
  if (variant === 'tree') {
    return <PageTree root={root} selectedId={value} onSelect={onChange} label={label} />;
  }
  const current = value ? findPage(root, value) : null;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Typography variant="body2" color="text.secondary">
        {label}:
      </Typography>
      <Button
        variant="outlined"
        size="small"
        disabled={disabled}
        aria-haspopup="tree"
        aria-label={`${label}: ${current ? pageLabel(current) : value || 'none'}`}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {current ? pageLabel(current) : value || 'Select Page'}
      </Button>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { minWidth: 280, maxHeight: 480, p: 1 } } }}
      >
        <PageTree
          root={root}
          selectedId={value}
          label={label}
          onSelect={(page) => {
            onChange(page);
            setAnchor(null);
          }}
        />
      </Popover>
    </Stack>
  );
}
