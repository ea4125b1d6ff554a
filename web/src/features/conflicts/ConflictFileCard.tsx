import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { conflictKeys, conflictsApi, type ConflictFile } from '../../api/conflicts';
import type { Id } from '../../api/portal';
import { LoadError, Loading } from '../../ui/Loading';
import { ConflictItem } from './ConflictItem';
import { CONFLICT_MESSAGES as MSG } from './messages';
import { isPagePath, type ConflictPick } from './model';
import { SideBySidePages } from './SandboxedPage';

export interface ConflictFileCardProps {
  d: Id;
  p: Id;
  file: ConflictFile;
  picks: Record<string, ConflictPick> | undefined;
  onPick: (conflictId: string, pick: ConflictPick) => void;
}

/** The whole file (its three versions and its schema), for schemas and rendered pages. */
function useConflictFile(d: Id, p: Id, path: string, enabled: boolean) {
  return useQuery({
    queryKey: conflictKeys.file(d, p, path),
    queryFn: () => conflictsApi.file(d, p, path),
    enabled,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

/**
 * One conflicting file: its conflicts, each with its choice; a JSON file with a schema shows
 * values in their fields' widgets; a page can be compared rendered (sandboxed).
 */
export function ConflictFileCard({ d, p, file, picks, onPick }: ConflictFileCardProps) {
  const titleId = useId();
  const [rendered, setRendered] = useState(false);
  const page = isPagePath(file.path) && !file.binary;
  const detail = useConflictFile(d, p, file.path, file.hasSchema || (page && rendered));
  const schemaText = file.hasSchema ? detail.data?.schema : undefined;

  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId}>
      <CardContent>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
          <Typography id={titleId} variant="h6" component="h2" sx={{ fontFamily: 'monospace', flex: 1 }}>
            {file.path}
          </Typography>
          <Chip size="small" label={MSG.conflictCount(file.conflicts.length)} />
          {page && (
            <FormControlLabel
              control={<Switch checked={rendered} onChange={(e) => setRendered(e.target.checked)} />}
              label={MSG.compareRendered}
            />
          )}
        </Stack>
        {file.hasSchema && detail.isPending && <Loading label={MSG.schemaLoading} />}
        {detail.isError && (
          <LoadError title={MSG.loadFailed} error={detail.error} onRetry={() => void detail.refetch()} />
        )}
        {page && rendered && detail.isPending && <Loading label={MSG.renderLoading} />}
        {page && rendered && detail.data && (
          <SideBySidePages
            pages={[
              { title: MSG.renderedTheirs, html: detail.data.theirs },
              { title: MSG.renderedMine, html: detail.data.mine },
            ]}
          />
        )}
        {file.conflicts.map((conflict, i) => (
          <Stack key={conflict.id}>
            {i > 0 && <Divider />}
            <ConflictItem
              file={file}
              conflict={conflict}
              pick={picks?.[conflict.id]}
              onPick={(pick) => onPick(conflict.id, pick)}
              schemaText={schemaText}
            />
          </Stack>
        ))}
      </CardContent>
    </Card>
  );
}
