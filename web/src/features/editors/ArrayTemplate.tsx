import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { Templates } from '@rjsf/mui';
import type { ArrayFieldTemplateProps, RJSFSchema } from '@rjsf/utils';
import { cloneElement, isValidElement, useEffect, useState, type ComponentType, type ReactElement } from 'react';
import { EDITOR_MESSAGES } from './messages';

/** Rows shown at once; the rest are built after ROWS_DELAY_MS (spec 2 §2, "rows build lazily"). */
export const FIRST_ROWS = 10;
export const ROWS_DELAY_MS = 500;
/** Tab labels are cut at 18 characters (spec 2 §9). */
export const TAB_LABEL_MAX = 18;

const DefaultArray = Templates.ArrayFieldTemplate as ComponentType<ArrayFieldTemplateProps>;

/** An item's title: its first schema property's value (spec 2 §3), else 'New Entry'. */
export function itemTitle(schema: RJSFSchema, item: unknown): string {
  const itemSchema = itemsOf(schema);
  const first = Object.keys(itemSchema?.properties ?? {})[0];
  const value = first && item && typeof item === 'object' ? (item as Record<string, unknown>)[first] : undefined;
  return typeof value === 'string' && value.trim() !== ''
    ? value
    : typeof value === 'number'
      ? String(value)
      : EDITOR_MESSAGES.newEntry;
}

/** The schema of an array's items (the first of a tuple). */
function itemsOf(schema: RJSFSchema): RJSFSchema | undefined {
  return (Array.isArray(schema.items) ? schema.items[0] : schema.items) as RJSFSchema | undefined;
}

/**
 * A row's heading (spec 2 §3): an object row is titled by its first property's value ('New
 * Entry' while empty), not by the schema's item title; a plain row (a string of a list) reads
 * 'Highlights 1' — never 'Highlights-1 *': a row of a list is not a required field.
 */
export function rowLabel(schema: RJSFSchema, arrayTitle: string | undefined, item: unknown, index: number): string {
  const items = itemsOf(schema);
  if (items?.type === 'object' || items?.properties) return itemTitle(schema, item);
  return `${arrayTitle || items?.title || EDITOR_MESSAGES.entry} ${index + 1}`;
}

interface RowProps {
  index: number;
  title?: string;
  itemData?: unknown;
  itemUiSchema?: Record<string, unknown>;
}

/** The rendered rows with their headings (rjsf's rows are ArrayFieldItem elements). */
function titledRows(props: ArrayFieldTemplateProps, rows: ReactElement[]): ReactElement[] {
  const arrayTitle = props.title ?? (typeof props.schema.title === 'string' ? props.schema.title : undefined);
  return rows.map((row) => {
    if (!isValidElement<RowProps>(row) || typeof row.props.index !== 'number') return row;
    const label = rowLabel(props.schema, arrayTitle, row.props.itemData, row.props.index);
    const ui = row.props.itemUiSchema ?? {};
    const options = (ui['ui:options'] as Record<string, unknown> | undefined) ?? {};
    return cloneElement(row, {
      title: label,
      itemUiSchema: { ...ui, 'ui:title': label, 'ui:options': { ...options, arrayRow: true } },
    });
  });
}

const cut = (label: string) => (label.length > TAB_LABEL_MAX ? `${label.slice(0, TAB_LABEL_MAX)}…` : label);

/**
 * The JSON editor's arrays: rows beyond the first ten are built after 500 ms, so a long list
 * opens at once; `format: "tabs"` shows one row at a time under tabs named by each row's title.
 */
export function ArrayTemplate(props: ArrayFieldTemplateProps) {
  const [allRows, setAllRows] = useState(props.items.length <= FIRST_ROWS);
  useEffect(() => {
    if (allRows) return;
    const timer = setTimeout(() => setAllRows(true), ROWS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [allRows]);
  const items = titledRows(props, allRows ? props.items : props.items.slice(0, FIRST_ROWS));
  if (props.schema.format === 'tabs') return <TabbedArray {...props} items={titledRows(props, props.items)} />;
  return (
    <>
      <DefaultArray {...props} items={items} />
      {!allRows && (
        <Typography variant="caption" color="text.secondary" role="status">
          {EDITOR_MESSAGES.moreRows(props.items.length - items.length)}
        </Typography>
      )}
    </>
  );
}

function TabbedArray(props: ArrayFieldTemplateProps) {
  const rows = Array.isArray(props.formData) ? (props.formData as unknown[]) : [];
  const [selected, setSelected] = useState(0);
  const [count, setCount] = useState(props.items.length);
  // A row added: its tab opens. A row removed: stay within the rows.
  if (count !== props.items.length) {
    setCount(props.items.length);
    setSelected(props.items.length > count ? props.items.length - 1 : Math.min(selected, props.items.length - 1));
  }
  const current = Math.max(0, Math.min(selected, props.items.length - 1));
  return (
    <DefaultArray
      {...props}
      items={
        props.items.length === 0
          ? []
          : [
              <Box key="tabs" sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}>
                <Tabs
                  value={current}
                  onChange={(_, value: number) => setSelected(value)}
                  variant="scrollable"
                  aria-label={`${props.title ?? 'Entries'} entries`}
                >
                  {rows.map((row, i) => {
                    const title = itemTitle(props.schema, row);
                    return <Tab key={i} label={cut(title)} title={title} />;
                  })}
                </Tabs>
              </Box>,
              props.items[current],
            ]
      }
    />
  );
}
