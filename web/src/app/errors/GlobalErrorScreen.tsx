import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { FullScreenMessage } from '../screens/FullScreenMessage';
import { BrokenWindowIllustration } from '../screens/Illustration';

/** Actions a global error may offer (spec 1 §2.5, §4.2). */
export type GlobalErrorAction = 'reset' | 'retry' | 'continue' | 'cancel';

export const GLOBAL_ERROR_ACTION_LABELS: Record<GlobalErrorAction, string> = {
  reset: 'Reset Workspace',
  retry: 'Retry',
  continue: 'Continue',
  cancel: 'Cancel',
};

const ORDER: GlobalErrorAction[] = ['reset', 'retry', 'continue', 'cancel'];

export interface GlobalErrorScreenProps {
  title: string;
  message: string;
  /** One handler per offered action; actions without a handler are not shown. */
  actions: Partial<Record<GlobalErrorAction, () => void>>;
}

/**
 * The global error screen: title, message and the actions the error allows,
 * among Reset Workspace, Retry, Continue and Cancel. Used by the workspace
 * selection chain (domains, portals, branches, sitemap) for failures that stop
 * the workspace.
 */
export function GlobalErrorScreen({ title, message, actions }: GlobalErrorScreenProps) {
  const offered = ORDER.filter((action) => actions[action]);
  return (
    <FullScreenMessage
      title={title}
      illustration={<BrokenWindowIllustration />}
      actions={offered.map((action) => (
        <Button
          key={action}
          variant={action === 'retry' ? 'contained' : 'outlined'}
          color={action === 'reset' ? 'warning' : 'primary'}
          onClick={actions[action]}
        >
          {GLOBAL_ERROR_ACTION_LABELS[action]}
        </Button>
      ))}
    >
      <Typography color="text.secondary" role="alert">
        {message}
      </Typography>
    </FullScreenMessage>
  );
}
