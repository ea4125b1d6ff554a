import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { conflictKeys, conflictsApi, type ReviewSide, type ReviewSubject } from '../../api/conflicts';
import type { Id } from '../../api/portal';
import { Loading } from '../../ui/Loading';
import { CONFLICT_MESSAGES as MSG } from './messages';

/** An object URL for a blob while it is shown; revoked when the blob changes or on unmount. */
export function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

interface SideProps {
  d: Id;
  p: Id;
  path: string;
  side: ReviewSide;
  subject: ReviewSubject;
  /** False: the file does not exist on this side. */
  present: boolean;
}

function ImageSide({ d, p, path, side, subject, present }: SideProps) {
  const title = side === 'before' ? MSG.before : MSG.after;
  // The bytes need the bearer token: fetched as a blob, shown through an object URL.
  const image = useQuery({
    queryKey: conflictKeys.raw(d, p, path, side, subject),
    queryFn: () => conflictsApi.raw(d, p, path, side, subject),
    enabled: present,
    gcTime: 0,
    retry: false,
  });
  const url = useObjectUrl(image.data);
  let body;
  if (!present) body = <Typography color="text.secondary">{MSG.none}</Typography>;
  else if (image.isError) body = <Typography color="error">{MSG.imageFailed}</Typography>;
  else if (!url) body = <Loading label={`${title}: ${MSG.reviewLoading}`} />;
  else
    body = (
      <Box
        component="img"
        src={url}
        alt={`${path} ${title.toLowerCase()}`}
        sx={{ maxWidth: '100%', maxHeight: 360, objectFit: 'contain', border: 1, borderColor: 'divider' }}
      />
    );
  return (
    <Stack spacing={0.5} sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant="subtitle2" component="h4">
        {title}
      </Typography>
      {body}
    </Stack>
  );
}

/** An image before and after, side by side. */
export function ImageCompare(props: Omit<SideProps, 'side' | 'present'> & { before: boolean; after: boolean }) {
  const { before, after, ...rest } = props;
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      <ImageSide {...rest} side="before" present={before} />
      <ImageSide {...rest} side="after" present={after} />
    </Stack>
  );
}
