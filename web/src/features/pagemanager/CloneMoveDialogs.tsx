/** The Page Manager's Clone page (new id and title) and Move to… (another parent) dialogs. */
import DialogContentText from '@mui/material/DialogContentText';
import { useEffect, useRef } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import type { SitemapPage } from '../../api/sitemap';
import { FormDialog } from '../../ui/FormDialog';
import { requiredField } from '../../ui/schemas';
import { SelectField } from '../../ui/SelectField';
import { ValidatedTextField } from '../../ui/ValidatedTextField';
import { idFromTitle, pageIdError, pageTitleError, parentOptions } from './model';

/** Spec 2 §9: 'other dialogs 815, 980 and 800 px wide'. */
export const CLONE_DIALOG_SIZE = { width: 800, minHeight: 250 } as const;
export const MOVE_DIALOG_SIZE = { width: 800, minHeight: 250 } as const;

export interface CloneValues {
  title: string;
  id: string;
}

export function CloneDialog({
  open,
  page,
  taken,
  onSubmit,
  onClose,
}: {
  open: boolean;
  page: SitemapPage | null;
  taken: ReadonlySet<string>;
  onSubmit: (values: CloneValues) => Promise<unknown>;
  onClose: () => void;
}) {
  const title = page ? `Copy of ${page.title || page.id}` : '';
  const schema = z.object({
    title: requiredField(pageTitleError),
    id: requiredField((s) => pageIdError(s, taken)),
  }) as unknown as z.ZodType<CloneValues, CloneValues>;
  return (
    <FormDialog<CloneValues>
      open={open}
      title="Clone page"
      schema={schema}
      defaultValues={{ title, id: idFromTitle(title) }}
      submitLabel="Clone"
      size={CLONE_DIALOG_SIZE}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {(form) => <CloneFields form={form} source={page} initialTitle={title} />}
    </FormDialog>
  );
}

function CloneFields({
  form,
  source,
  initialTitle,
}: {
  form: UseFormReturn<CloneValues, unknown, CloneValues>;
  source: SitemapPage | null;
  initialTitle: string;
}) {
  const autoId = useRef(idFromTitle(initialTitle));
  useEffect(() => {
    const sub = form.watch((values, { name }) => {
      if (name !== 'title' || form.getValues('id') !== autoId.current) return;
      autoId.current = idFromTitle(values.title ?? '');
      form.setValue('id', autoId.current, { shouldValidate: true, shouldDirty: true });
    });
    return () => sub.unsubscribe();
  }, [form]);
  return (
    <>
      <DialogContentText>
        {`A copy of '${source?.title || source?.id || ''}' and its HTML, placed right after it (without its sub-pages).`}
      </DialogContentText>
      <ValidatedTextField name="title" control={form.control} label="New title" required autoFocus showErrorsEarly />
      <ValidatedTextField name="id" control={form.control} label="New page id" required showErrorsEarly />
    </>
  );
}

export interface MoveValues {
  parentId: string;
}

export function MoveDialog({
  open,
  root,
  page,
  parentId,
  onSubmit,
  onClose,
}: {
  open: boolean;
  root: SitemapPage | null | undefined;
  page: SitemapPage | null;
  parentId: string;
  onSubmit: (values: MoveValues) => Promise<unknown>;
  onClose: () => void;
}) {
  const options = parentOptions(root, page?.id).map((o) => ({
    value: o.id,
    label: `${'\u2003'.repeat(o.depth)}${o.label}`,
  }));
  const schema = z.object({ parentId: z.string().min(1) }) as unknown as z.ZodType<MoveValues, MoveValues>;
  return (
    <FormDialog<MoveValues>
      open={open}
      title="Move page"
      schema={schema}
      defaultValues={{ parentId }}
      submitLabel="Move"
      size={MOVE_DIALOG_SIZE}
      submitDisabled={(form) => form.watch('parentId') === parentId}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      {(form) => (
        <>
          <DialogContentText>
            {`Move '${page?.title || page?.id || ''}' (with its sub-pages) under another page. It goes last among its new siblings.`}
          </DialogContentText>
          <Controller
            control={form.control}
            name="parentId"
            render={({ field: f }) => (
              <SelectField label="New parent page" value={f.value} onChange={f.onChange} options={options} />
            )}
          />
        </>
      )}
    </FormDialog>
  );
}
