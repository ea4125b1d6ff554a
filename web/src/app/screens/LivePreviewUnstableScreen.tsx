import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { FullScreenMessage } from './FullScreenMessage';
import { BrokenWindowIllustration } from './Illustration';

/**
 * Route error/live-preview-unstable (spec 1 §2.1, §2.5): the live-preview
 * workspace changed (its build is unstable) and cannot be opened as it is.
 */
export default function LivePreviewUnstableScreen() {
  const navigate = useNavigate();
  return (
    <FullScreenMessage
      fill="area"
      title="Can't open live preview"
      illustration={<BrokenWindowIllustration size={140} />}
      actions={
        <Button variant="contained" onClick={() => navigate('/')}>
          Back to Dashboard
        </Button>
      }
    >
      <Typography color="text.secondary">
        The live preview build is unstable: its workspace has changed and cannot be opened as it is.
      </Typography>
      <Typography color="text.secondary">If the error persists, please contact the Domain Administrator.</Typography>
    </FullScreenMessage>
  );
}
