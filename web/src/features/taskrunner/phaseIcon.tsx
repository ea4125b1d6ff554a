import BlockIcon from '@mui/icons-material/Block';
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import SettingsIcon from '@mui/icons-material/Settings';
import WarningIcon from '@mui/icons-material/Warning';
import { keyframes } from '@mui/material/styles';
import type { ReactElement } from 'react';
import type { TaskRunnerState } from '../../api/taskRunner';
import { phaseAppearance, type IconColor, type PhaseIconName } from './model';

const spin = keyframes`from { transform: rotate(0deg); } to { transform: rotate(360deg); }`;

const ICONS: Record<PhaseIconName, () => ReactElement> = {
  error: () => <CancelIcon fontSize="small" />,
  'cross-out': () => <BlockIcon fontSize="small" />,
  info: () => <InfoOutlinedIcon fontSize="small" />,
  spinner: () => <SettingsIcon fontSize="small" sx={{ animation: `${spin} 1.2s linear infinite` }} />,
  check: () => <CheckCircleIcon fontSize="small" />,
  cross: () => <CancelIcon fontSize="small" />,
  warning: () => <WarningIcon fontSize="small" />,
  none: () => <InfoOutlinedIcon fontSize="small" />,
};

/** The header icon and its colour of a state (null: not loaded yet). */
export function phaseIcon(state: TaskRunnerState | null): { icon: ReactElement; color: IconColor; name: string } {
  const { name, color } = phaseAppearance(state);
  return { icon: ICONS[name](), color, name };
}
