import CodeIcon from '@mui/icons-material/Code';
import DesignIcon from '@mui/icons-material/DesignServicesOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { SitemapPage } from '../../api/sitemap';
import { HistoryButton } from '../valuehistory';
import { pageStatusLabel } from './model';

/** The selected page's fields, with Open in designer and Edit source. */
export function PageDetails({
  page,
  parent,
  onDesigner,
  onSource,
  history,
}: {
  page: SitemapPage;
  parent: SitemapPage | null;
  onDesigner: () => void;
  onSource: () => void;
  /** The page's file history (issue 33): where, and whether a restore is offered. */
  history: { domain: string; portal: string; canRestore: boolean };
}) {
  const parameters = page.parameters ?? [];
  const row = (label: string, value: ReactNode) => (
    <Box sx={{ display: 'grid', gridTemplateColumns: '110px 1fr', gap: 1 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ wordBreak: 'break-word' }}>
        {value}
      </Typography>
    </Box>
  );
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, width: { xs: '100%', md: 360 }, flexShrink: 0 }}
      role="region"
      aria-label="Page details"
    >
      <Stack spacing={1}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="h6" component="h2">
            {page.title || page.id}
          </Typography>
          <HistoryButton
            d={history.domain}
            p={history.portal}
            subject={{ kind: 'page', page: page.id }}
            what={page.title || page.id}
            canRestore={history.canRestore}
          />
        </Stack>
        {row('Id', <code>{page.id}</code>)}
        {row('URL', page.url || '—')}
        {!page.isMaster && row('Parent', parent ? parent.title || parent.id : '—')}
        {!page.isMaster && row('Status', pageStatusLabel(page.status))}
        {!page.isMaster && row('Hidden', page.hidePage ? 'Yes' : 'No')}
        {!page.isMaster &&
          row(
            'Parameters',
            parameters.length === 0 ? (
              'None'
            ) : (
              <Stack direction="row" useFlexGap spacing={0.5} sx={{ flexWrap: 'wrap' }}>
                {parameters.map((p) => (
                  <Chip
                    key={p.name}
                    size="small"
                    label={`${p.name}${p.required ? ' *' : ''}`}
                    title={p.description || undefined}
                  />
                ))}
              </Stack>
            ),
          )}
        <Stack direction="row" spacing={1} sx={{ pt: 1 }}>
          <Button variant="outlined" size="small" startIcon={<DesignIcon />} onClick={onDesigner}>
            Open in designer
          </Button>
          <Button size="small" startIcon={<CodeIcon />} onClick={onSource}>
            Edit source
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
