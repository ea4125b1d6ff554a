/**
 * The actions other features add to a notification card (previews: Details, Open preview, Retry;
 * loadables: theirs). They register here from their register.ts and the notification centre
 * renders them in `order`: realtime imports none of them, they import realtime (no feature loop).
 */
import type { ComponentType } from 'react';
import type { Notification } from './notificationsStore';

export interface CardActionsProps {
  card: Notification;
  /** Goes to a path (the notification centre closes its menu first). */
  onNavigate: (path: string) => void;
}

interface CardActions {
  id: string;
  /** Lower comes first (left). */
  order: number;
  /** Renders the card's actions, or null when the card is not one of the feature's. */
  Component: ComponentType<CardActionsProps>;
}

const registered = new Map<string, CardActions>();

export function registerCardActions(actions: CardActions): void {
  registered.set(actions.id, actions);
}

export function cardActions(): CardActions[] {
  return [...registered.values()].sort((a, b) => a.order - b.order);
}
