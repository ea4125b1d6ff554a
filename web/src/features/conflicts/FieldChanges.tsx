import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { FieldChange, FieldOp } from '../../api/conflicts';
import { FIELD_OP_LABEL, CONFLICT_MESSAGES as MSG } from './messages';
import { prettyJson } from './model';

const OP_COLOR: Record<FieldOp, 'success' | 'error' | 'primary' | 'default'> = {
  add: 'success',
  remove: 'error',
  change: 'primary',
  move: 'default',
};

const mono = { fontFamily: 'monospace', fontSize: 13, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', m: 0 } as const;

function Value({ text }: { text: string | null }) {
  if (text === null)
    return (
      <Typography variant="body2" color="text.secondary">
        {MSG.none}
      </Typography>
    );
  return (
    <Box component="pre" sx={mono}>
      {prettyJson(text)}
    </Box>
  );
}

/** A JSON file's (or a translation file's) field changes: Path (Key), Change, Old, New. */
export function FieldChanges({
  path,
  fields,
  translation,
}: {
  path: string;
  fields: FieldChange[];
  translation: boolean;
}) {
  if (fields.length === 0) return <Typography color="text.secondary">{MSG.noFieldChanges}</Typography>;
  return (
    <Table size="small" aria-label={translation ? MSG.keyTable(path) : MSG.fieldTable(path)}>
      <TableHead>
        <TableRow>
          <TableCell>{translation ? MSG.keyColumn : MSG.fieldColumn}</TableCell>
          <TableCell>{MSG.changeColumn}</TableCell>
          <TableCell>{MSG.oldColumn}</TableCell>
          <TableCell>{MSG.newColumn}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {fields.map((f) => (
          <TableRow key={`${f.op}:${f.pointer}`} sx={{ verticalAlign: 'top' }}>
            <TableCell component="th" scope="row" sx={{ fontFamily: 'monospace', fontSize: 13 }}>
              {f.path || f.pointer}
            </TableCell>
            <TableCell>
              <Chip size="small" variant="outlined" label={FIELD_OP_LABEL[f.op]} color={OP_COLOR[f.op]} />
            </TableCell>
            <TableCell sx={{ maxWidth: 360 }}>
              <Value text={f.old} />
            </TableCell>
            <TableCell sx={{ maxWidth: 360 }}>
              <Value text={f.new} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
