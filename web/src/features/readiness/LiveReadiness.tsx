import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useRoomMessages } from '../realtime';
import { handleReadinessMessage } from './live';

/**
 * Follows READINESS_CHANGED while signed in (live.ts); renders nothing. Registered as a header
 * action so it is mounted once in the signed-in shell, like the other features' room listeners.
 */
export default function LiveReadiness() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useRoomMessages((message) =>
    handleReadinessMessage(message, queryClient, { navigate: (path) => void navigate(path) }),
  );
  return null;
}
