import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { portalApi, type Category, type Portal } from '../../api/portal';
import { Restricted } from '../../ui/Restricted';
import { toasts } from '../../core/toastService';
import { plural } from '../../lib/format';
import { useAction } from '../../ui/useAction';
import { alphanumericNameError } from '../admin';
import { portalCount } from './model';
import { RuleNameDialog } from './shared';

/** The domain's portal categories: create, rename, delete (each with its portal count). */
export function CategoriesCard({
  domain,
  categories,
  portals,
  onChanged,
}: {
  domain: string;
  categories: Category[];
  portals: Portal[];
  onChanged: () => Promise<unknown>;
}) {
  const [dialog, setDialog] = useState<{ mode: 'create' } | { mode: 'rename'; category: Category } | null>(null);

  const save = useAction({
    action: async ({ name, category }: { name: string; category?: Category }) => {
      if (category) await portalApi.renameCategory(domain, category.id, name);
      else await portalApi.createCategory(domain, name);
    },
    success: (_, { name, category }) => (category ? `Category renamed to ${name}.` : `Category ${name} created.`),
    failure: ({ category }) => (category ? 'Could not rename the category' : 'Could not create the category'),
    onSuccess: async () => {
      setDialog(null);
      await onChanged();
    },
  });

  const remove = useAction({
    action: (category: Category) => portalApi.deleteCategory(domain, category.id),
    success: (_, category) => `Category ${category.name} deleted.`,
    failure: 'Could not delete the category',
    onSuccess: onChanged,
  });

  async function confirmDelete(category: Category) {
    const question = `Delete the category ${category.name}? Its portals become uncategorized.`;
    if (await toasts.prompt(question, { title: 'Delete Category' })) remove.run(category);
  }

  const count = (c: Category) => portalCount(c, portals);

  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            Categories
          </Typography>
          <Restricted permission="category_create">
            <Button variant="outlined" onClick={() => setDialog({ mode: 'create' })}>
              Create Category
            </Button>
          </Restricted>
        </Stack>
        {categories.length === 0 ? (
          <Typography color="text.secondary">No categories yet.</Typography>
        ) : (
          <List dense aria-label="Categories">
            {categories.map((c) => (
              <ListItem
                key={c.id}
                divider
                secondaryAction={
                  <Stack direction="row" spacing={1}>
                    <Restricted permission="category_write">
                      <Button
                        size="small"
                        aria-label={`Rename category ${c.name}`}
                        onClick={() => setDialog({ mode: 'rename', category: c })}
                      >
                        Rename
                      </Button>
                    </Restricted>
                    <Restricted permission="category_delete">
                      <Button
                        size="small"
                        color="error"
                        aria-label={`Delete category ${c.name}`}
                        disabled={remove.pending}
                        onClick={() => void confirmDelete(c)}
                      >
                        Delete
                      </Button>
                    </Restricted>
                  </Stack>
                }
              >
                <ListItemText primary={c.name} secondary={plural(count(c), 'portal')} />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
      <RuleNameDialog
        open={dialog !== null}
        title={dialog?.mode === 'rename' ? 'Rename Category' : 'Create Category'}
        label="Category name"
        submitLabel={dialog?.mode === 'rename' ? 'Rename' : 'Create'}
        initialName={dialog?.mode === 'rename' ? dialog.category.name : ''}
        validate={(name) => alphanumericNameError(name) ?? null}
        onSubmit={(name) => save.submit({ name, category: dialog?.mode === 'rename' ? dialog.category : undefined })}
        onClose={() => setDialog(null)}
      />
    </Card>
  );
}
