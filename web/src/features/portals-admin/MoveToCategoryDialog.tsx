import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { portalApi, type Category, type Portal } from '../../api/portal';
import { useAction } from '../../ui/useAction';
import { categoryChoice, movedMessage } from './model';

/** Puts a portal into a category, or out of its category ('No category'). */
export function MoveToCategoryDialog({
  domain,
  portal,
  categories,
  onClose,
  onMoved,
}: {
  domain: string;
  portal: Portal | null;
  categories: Category[];
  onClose: () => void;
  onMoved: () => void;
}) {
  const [target, setTarget] = useState('');
  const [shownFor, setShownFor] = useState<Portal | null>(null);
  if (portal !== shownFor) {
    // A new portal to move: start from its current category.
    setShownFor(portal);
    setTarget(categoryChoice(portal));
  }
  const current = categoryChoice(portal);

  const move = useAction({
    action: async ({ p, to }: { p: Portal; to: string }) => {
      if (to === '') {
        if (p.categoryId != null) await portalApi.unlinkPortals(domain, p.categoryId, [p.id]);
      } else {
        await portalApi.linkPortals(domain, Number(to), [p.id]);
      }
    },
    success: (_, { p, to }) => movedMessage(p, to, categories),
    failure: 'Could not move the portal',
    onSuccess: onMoved,
  });

  return (
    <Dialog open={portal !== null} onClose={() => !move.pending && onClose()} fullWidth maxWidth="xs">
      <DialogTitle>Move to category</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }}>{portal?.name}</Typography>
        <TextField
          select
          label="Category"
          size="small"
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          fullWidth
        >
          <MenuItem value="">
            <em>No category</em>
          </MenuItem>
          {categories.map((c) => (
            <MenuItem key={c.id} value={String(c.id)}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={move.pending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          disabled={move.pending || target === current}
          onClick={() => portal && move.run({ p: portal, to: target })}
        >
          Move
        </Button>
      </DialogActions>
    </Dialog>
  );
}
