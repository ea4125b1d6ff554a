/** The findings of the report: grouped by rule or by file, filtered by severity and language. */
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import type { Finding } from '../../api/readiness';
import { languageLabel } from '../../lib/languages';
import { SelectField } from '../../ui/SelectField';
import { FindingsTable } from './FindingsTable';
import { READINESS_MESSAGES as MSG } from './messages';
import {
  ALL,
  countsText,
  filterFindings,
  groupFindings,
  languagesOf,
  NO_FILTERS,
  SEVERITIES,
  SEVERITY_LABELS,
  type Filters,
  type GroupBy,
  type LinkContext,
} from './model';

/** The id of the findings' heading (focus lands there when the row that had it is gone). */
export const FINDINGS_HEADING = 'readiness-findings';

/** Groups open at first; the rest open on demand (a portal may have hundreds of files with findings). */
const OPEN_GROUPS = 5;

export function FindingsView({
  findings,
  ctx,
  onIgnore,
}: {
  findings: readonly Finding[];
  ctx: LinkContext;
  onIgnore?: (finding: Finding) => void;
}) {
  const [groupBy, setGroupBy] = useState<GroupBy>('rule');
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const languages = useMemo(() => languagesOf(findings), [findings]);
  const groups = useMemo(() => groupFindings(filterFindings(findings, filters), groupBy), [findings, filters, groupBy]);

  return (
    <Stack spacing={2} component="section" aria-labelledby={FINDINGS_HEADING}>
      <Typography id={FINDINGS_HEADING} variant="h6" component="h2" tabIndex={-1}>
        Findings
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography id="readiness-group-by" variant="body2">
            {MSG.groupBy}
          </Typography>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={groupBy}
            onChange={(_, v: GroupBy | null) => v && setGroupBy(v)}
            aria-labelledby="readiness-group-by"
          >
            <ToggleButton value="rule">{MSG.byRule}</ToggleButton>
            <ToggleButton value="file">{MSG.byFile}</ToggleButton>
          </ToggleButtonGroup>
        </Stack>
        <SelectField
          label={MSG.severity}
          value={filters.severity}
          onChange={(severity) => setFilters((f) => ({ ...f, severity: severity as Filters['severity'] }))}
          options={[
            { value: ALL, label: MSG.all },
            ...SEVERITIES.map((s) => ({ value: s, label: SEVERITY_LABELS[s] })),
          ]}
          sx={{ width: 160 }}
        />
        {languages.length > 0 && (
          <SelectField
            label={MSG.language}
            value={filters.language}
            onChange={(language) => setFilters((f) => ({ ...f, language }))}
            options={[
              { value: ALL, label: MSG.allLanguages },
              ...languages.map((l) => ({ value: l, label: languageLabel(l) })),
            ]}
            sx={{ width: 220 }}
          />
        )}
      </Stack>
      {findings.length === 0 ? (
        <Typography role="status">{MSG.noFindings}</Typography>
      ) : groups.length === 0 ? (
        <Typography role="status">{MSG.noMatch}</Typography>
      ) : (
        <div>
          {groups.map((group, index) => (
            <Accordion
              key={`${groupBy}:${group.id}`}
              defaultExpanded={index < OPEN_GROUPS}
              disableGutters
              variant="outlined"
              slotProps={{ transition: { unmountOnExit: true } }}
            >
              <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                <Stack direction="row" spacing={1.5} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }}>
                  <Typography
                    sx={{ fontWeight: 600, fontFamily: groupBy === 'file' && group.id ? 'monospace' : undefined }}
                  >
                    {group.label}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {countsText(group.counts)}
                  </Typography>
                </Stack>
              </AccordionSummary>
              <AccordionDetails sx={{ p: 0 }}>
                <FindingsTable
                  label={group.label}
                  findings={group.findings}
                  ctx={ctx}
                  showRule={groupBy === 'file'}
                  onIgnore={onIgnore}
                />
              </AccordionDetails>
            </Accordion>
          ))}
        </div>
      )}
    </Stack>
  );
}
