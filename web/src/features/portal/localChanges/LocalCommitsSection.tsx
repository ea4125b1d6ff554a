import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import type { LocalCommit } from '../../../api/portal';
import { formatDateTime } from '../../../lib/format';
import { CONFLICT_MESSAGES } from '../../conflicts';

/** The caller's local commits with Revert To (portal:w; disabled while the commits conflict). */
export function LocalCommitsSection({
  commits,
  canWrite,
  inConflict,
  onRevertTo,
}: {
  commits: LocalCommit[] | undefined;
  canWrite: boolean;
  inConflict: boolean;
  onRevertTo: (commit: LocalCommit) => void;
}) {
  const captionId = useId();
  return (
    <Box component="section" aria-label="Local commits">
      <Typography variant="subtitle2" component="h3" gutterBottom>
        Local commits
      </Typography>
      {commits && commits.length > 0 ? (
        <>
          <Table size="small" aria-label="Local commits table">
            <TableHead>
              <TableRow>
                <TableCell>Message</TableCell>
                <TableCell>Time</TableCell>
                {canWrite && <TableCell>Action</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {commits.map((c) => (
                <TableRow key={c.commitId}>
                  <TableCell>{c.message}</TableCell>
                  <TableCell>{formatDateTime(c.time)}</TableCell>
                  {canWrite && (
                    <TableCell>
                      <Button
                        size="small"
                        disabled={inConflict}
                        aria-describedby={inConflict ? captionId : undefined}
                        onClick={() => onRevertTo(c)}
                      >
                        Revert To
                      </Button>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {canWrite && inConflict && (
            <Typography id={captionId} variant="caption" color="text.secondary">
              {CONFLICT_MESSAGES.resolveFirst}
            </Typography>
          )}
        </>
      ) : (
        <Typography color="text.secondary">No local commits</Typography>
      )}
    </Box>
  );
}
