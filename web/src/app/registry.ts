/**
 * Feature registry: how features plug into the shell without the shell
 * knowing them. A feature module calls the register functions at import time
 * (before the router is created in main.tsx):
 *
 *   registerRoute({ id: 'domain.dashboard', path: 'domain/:domain/dashboard',
 *                   lazy: () => import('./DomainDashboard') });
 *
 * - Routes are mounted inside the signed-in shell. A registered route id also
 *   makes the side-navigation entry with the same id appear (app/nav/menus.ts).
 * - Portal-group selectors (Select Portal, Branch, Language, Page) appear once
 *   their picker is registered.
 * - Profile menu entries (e.g. Edit Profile) open the dialog they register.
 *
 * Nothing is rendered for a feature that has not registered: the shell never
 * shows dead entries.
 */
import type { ComponentType } from 'react';
import type { PortalSelectorKind } from './nav/menus';
import { SELECTOR_IDS } from './nav/menus';

export interface RouteModule {
  /** Matches a MenuEntry id when the route has a side-navigation entry. */
  id: string;
  /** Path relative to the root, e.g. 'admin/users/:userId'. */
  path: string;
  /** A module whose default export (or `Component`) is the route's component. */
  lazy: () => Promise<{ default: ComponentType } | { Component: ComponentType }>;
}

export interface SelectorPickerProps {
  anchorEl: HTMLElement;
  onClose: () => void;
}

export interface ProfileMenuEntry {
  id: string;
  label: string;
  order?: number;
  /** The dialog the entry opens. */
  Dialog: ComponentType<{ open: boolean; onClose: () => void }>;
}

const routes = new Map<string, RouteModule>();
const selectors = new Map<PortalSelectorKind, ComponentType<SelectorPickerProps>>();
const profileEntries = new Map<string, ProfileMenuEntry>();

export function registerRoute(module: RouteModule): void {
  routes.set(module.id, module);
}

export function registerSelector(kind: PortalSelectorKind, picker: ComponentType<SelectorPickerProps>): void {
  selectors.set(kind, picker);
}

export function registerProfileMenuEntry(entry: ProfileMenuEntry): void {
  profileEntries.set(entry.id, entry);
}

export function registeredRoutes(): RouteModule[] {
  return [...routes.values()];
}

export function selectorPicker(kind: PortalSelectorKind): ComponentType<SelectorPickerProps> | undefined {
  return selectors.get(kind);
}

export function profileMenuEntries(): ProfileMenuEntry[] {
  return [...profileEntries.values()].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}

/** Ids of everything registered, as NavContext.available expects. */
export function availableFeatureIds(): ReadonlySet<string> {
  return new Set([...routes.keys(), ...[...selectors.keys()].map((kind) => SELECTOR_IDS[kind])]);
}
