import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ASSET_MESSAGES } from './messages';

/** The empty-folder message with the allowed extensions as a hint (spec 2 §2). */
export function EmptyFolder({ allowedExtensions }: { allowedExtensions: readonly string[] | undefined }) {
  return (
    <Stack spacing={1} sx={{ py: 6, alignItems: 'center', textAlign: 'center' }}>
      <Typography>{ASSET_MESSAGES.emptyFolder}</Typography>
      {allowedExtensions && allowedExtensions.length > 0 && (
        <Typography variant="body2" color="text.secondary">
          {ASSET_MESSAGES.allowedExtensions(allowedExtensions)}
        </Typography>
      )}
    </Stack>
  );
}
