/**
 * The loadable creation wizard (spec 3 §2 "Loadable creation wizard", §3 "Loadable generation
 * request"): …/loadables-create. Four steps in a Stepper — Source (payload type, reference,
 * Validate), Details (name, part number, version prefix), Copyright (statement, media files,
 * the client address, I accept), Review — and 'Create and generate': create, then generate,
 * then Manage Loadables. The wizard is keyed by the branch: a branch change resets it.
 */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { loadableApi, loadableKeys, type GitValidation } from '../../api/loadables';
import { lookupLabel, useLookup } from '../../api/lookup';
import { paths } from '../../core/paths';
import { showHttpError, toasts } from '../../core/toastService';
import { PendingButton } from '../../ui/ConfirmDialog';
import { useAction } from '../../ui/useAction';
import { ReadinessPanel } from '../readiness';
import { CopyrightStep } from './CopyrightStep';
import { DetailsStep } from './DetailsStep';
import { LoadableScreen, type LoadablePortal } from './LoadableScreen';
import { LOADABLE_CREATED_TOAST_MS, LOADABLE_MESSAGES as MSG } from './messages';
import { SourceStep, type SourceValues } from './SourceStep';
import { detailsErrors, gitRefError, typeError, type DetailsValues } from './validation';

export default function CreateLoadableScreen() {
  return (
    <LoadableScreen title={MSG.createTitle} permission="loadable:c" intro={MSG.createIntro}>
      {(p) => <Wizard key={`${p.domain}/${p.portal}/${p.branch}`} {...p} />}
    </LoadableScreen>
  );
}

const sameSource = (v: GitValidation | null, s: SourceValues, checkedFor: SourceValues | null) =>
  !!v && !!checkedFor && checkedFor.type === s.type && checkedFor.gitRef.trim() === s.gitRef.trim();

function Wizard({ domain, portal, branch, language, portalName }: LoadablePortal) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const types = useLookup('PayloadType');
  const [step, setStep] = useState(0);
  const [tried, setTried] = useState<Record<number, boolean>>({});
  const [source, setSource] = useState<SourceValues>({ type: 'PORTAL', gitRef: branch });
  const [validation, setValidation] = useState<{ result: GitValidation; for: SourceValues } | null>(null);
  const [details, setDetails] = useState<DetailsValues>({ name: '', partNumber: '', versionPrefix: '1.0' });
  const [accepted, setAccepted] = useState(false);

  const validated = sameSource(validation?.result ?? null, source, validation?.for ?? null);
  const shownValidation = validated ? validation!.result : null;
  const copyright = useQuery({
    queryKey: loadableKeys.copyright(domain, portal, source.type, source.gitRef.trim()),
    queryFn: () => loadableApi.copyright(domain, portal, source.type, source.gitRef.trim(), true),
    enabled: step >= 2,
    retry: false,
  });

  const sourceError = typeError(source.type) ?? gitRefError(source.gitRef);
  const validateAction = useAction({
    action: (checked: SourceValues) => loadableApi.gitValidation(domain, portal, checked.type, checked.gitRef),
    failure: MSG.validateFailed,
    onSuccess: (result, checked) => setValidation({ result, for: checked }),
  });
  const nameAction = useAction({
    action: (type: string) => loadableApi.generateName(domain, portal, type),
    failure: MSG.nameFailed,
    onSuccess: ({ name }) => setDetails((d) => (d.name ? d : { ...d, name })),
  });
  const partAction = useAction({
    action: () => loadableApi.partNumber(domain, portal, portalName, source.type),
    failure: MSG.partFailed,
    onSuccess: ({ partNumber }) => setDetails((d) => ({ ...d, partNumber })),
  });
  /** Create, then generate (a failed generation is told, and Manage Loadables opens all the same). */
  const createAction = useAction({
    action: async (data: NonNullable<typeof copyright.data>) => {
      const created = await loadableApi.create(domain, portal, {
        ...details,
        type: source.type,
        gitRef: source.gitRef,
        copyrightData: { statement: data.statement, metaData: { ...data.metaData, accept: true } },
      });
      try {
        await loadableApi.generate(domain, portal, created.id);
        toasts.success(MSG.created, undefined, { timeOut: LOADABLE_CREATED_TOAST_MS });
      } catch (error) {
        showHttpError(error, MSG.generateFailed);
      }
    },
    failure: MSG.createFailed,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: loadableKeys.all(domain, portal) });
      void navigate(paths.portalScreen(domain, portal, branch, language, 'loadables-manage'));
    },
  });
  const validating = validateAction.pending;
  const suggesting = partAction.pending;
  const creating = createAction.pending;

  function validate() {
    if (sourceError) {
      setTried((t) => ({ ...t, 0: true }));
      return;
    }
    validateAction.run({ ...source, gitRef: source.gitRef.trim() });
  }

  const stepValid = [
    () => !sourceError && validated && validation!.result.valid,
    () => Object.keys(detailsErrors(details)).length === 0,
    () => accepted && !!copyright.data,
    () => true,
  ];

  function next() {
    setTried((t) => ({ ...t, [step]: true }));
    if (!stepValid[step]()) {
      if (step === 0 && !sourceError && !validated) toasts.warning(MSG.validateFirst);
      return;
    }
    if (step === 0 && !details.name) nameAction.run(source.type);
    setStep(step + 1);
  }

  function create() {
    if (creating || !copyright.data) return;
    createAction.run(copyright.data);
  }

  const review: Array<[string, string]> = [
    ['Payload type', lookupLabel(types, source.type)],
    ['Branch, tag or commit', source.gitRef.trim()],
    ['Commit', validation?.result.commitId.slice(0, 10) ?? ''],
    ['Name', details.name.trim()],
    ['Part number', details.partNumber.trim()],
    ['Version', `${details.versionPrefix.trim()}.<build>`],
    ['Copyright', accepted ? 'Accepted' : 'Not accepted'],
  ];

  return (
    <Stack spacing={3}>
      <Stepper activeStep={step} aria-label="Steps">
        {MSG.steps.map((label) => (
          <Step key={label}>
            <StepLabel>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      {step === 0 && (
        <SourceStep
          domain={domain}
          portal={portal}
          values={source}
          onChange={setSource}
          validation={shownValidation}
          validating={validating}
          onValidate={validate}
          error={tried[0] ? gitRefError(source.gitRef) : null}
        />
      )}
      {step === 1 && (
        <DetailsStep
          values={details}
          onChange={setDetails}
          showErrors={!!tried[1]}
          onSuggestPart={() => partAction.run()}
          suggesting={suggesting}
        />
      )}
      {step === 2 && (
        <CopyrightStep
          copyright={copyright.data}
          loading={copyright.isPending}
          error={copyright.error}
          onRetry={() => void copyright.refetch()}
          accepted={accepted}
          onAccept={setAccepted}
          showErrors={!!tried[2]}
        />
      )}
      {step === 3 && (
        <Table size="small" aria-label="Review" sx={{ maxWidth: 560 }}>
          <TableBody>
            {review.map(([label, value]) => (
              <TableRow key={label}>
                <TableCell component="th" scope="row">
                  {label}
                </TableCell>
                <TableCell>{value}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {(step === 0 || step === 3) && shownValidation?.valid && shownValidation.commitId && (
        // What is packaged is this commit: its readiness, not the workspace's (issue 29 item 4).
        <Stack sx={{ maxWidth: 560 }}>
          <ReadinessPanel
            domain={domain}
            portal={portal}
            branch={branch}
            language={language}
            commitId={shownValidation.commitId}
          />
        </Stack>
      )}
      <Stack direction="row" spacing={1}>
        <Button disabled={step === 0 || creating} onClick={() => setStep(step - 1)}>
          Back
        </Button>
        {step < 3 ? (
          <Button variant="contained" onClick={next}>
            Next
          </Button>
        ) : (
          <PendingButton pending={creating} onClick={create}>
            {MSG.createAndGenerate}
          </PendingButton>
        )}
      </Stack>
    </Stack>
  );
}
