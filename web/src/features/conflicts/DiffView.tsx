import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FileReview, ReviewSubject } from '../../api/conflicts';
import type { ChangeType, Id } from '../../api/portal';
import { FieldChanges } from './FieldChanges';
import { ImageCompare } from './ImageCompare';
import { LineDiff } from './LineDiff';
import { CONFLICT_MESSAGES as MSG } from './messages';
import { SideBySidePages } from './SandboxedPage';

const CHANGE_COLOR: Record<ChangeType, 'success' | 'primary' | 'error'> = {
  ADD: 'success',
  MODIFY: 'primary',
  DELETE: 'error',
};

export interface DiffViewProps {
  d: Id;
  p: Id;
  review: FileReview;
  /** Whose changes (for the images' bytes). */
  subject?: ReviewSubject;
}

/**
 * One file's changes: JSON and translation files as a table of field changes, text as line
 * hunks, images before and after side by side, pages rendered before and after (sandboxed)
 * above their source changes; a change of the file's mode as a line above them.
 */
export function DiffView({ d, p, review, subject = {} }: DiffViewProps) {
  const { path, change, diff } = review;
  let body;
  if (review.image)
    body = (
      <ImageCompare d={d} p={p} path={path} subject={subject} before={change !== 'ADD'} after={change !== 'DELETE'} />
    );
  else if (diff.kind === 'json' || diff.kind === 'translation')
    body = <FieldChanges path={path} fields={diff.fields} translation={diff.kind === 'translation'} />;
  else if (diff.binary || diff.kind === 'binary')
    body = <Typography color="text.secondary">{MSG.binaryChanged}</Typography>;
  else if (review.page)
    body = (
      <Stack spacing={2}>
        <SideBySidePages
          pages={[
            { title: MSG.renderedBefore, html: review.before },
            { title: MSG.renderedAfter, html: review.after },
          ]}
        />
        <Typography variant="subtitle2" component="h4">
          {MSG.sourceChanges}
        </Typography>
        <LineDiff path={path} hunks={diff.hunks} />
      </Stack>
    );
  else body = <LineDiff path={path} hunks={diff.hunks} />;

  return (
    <Stack spacing={1.5} component="section" aria-label={MSG.reviewFile(path)}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Chip size="small" variant="outlined" label={change} color={CHANGE_COLOR[change]} />
        <Typography component="h3" variant="subtitle1" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
          {path}
        </Typography>
      </Stack>
      {review.modeChange && (
        <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
          {MSG.modeChanged(review.modeChange.old, review.modeChange.new)}
        </Typography>
      )}
      {diff.truncated && <Alert severity="info">{MSG.truncated}</Alert>}
      {body}
    </Stack>
  );
}
