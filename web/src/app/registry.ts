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
 * - Header actions (notification centre, file watcher, local changes; later the task runner,
 *   search and previews) appear in the header bar, left of the documentation and profile
 *   menus, in `order`. Register a lazy component so the login bundle stays small.
 *
 * Nothing is rendered for a feature that has not registered: the shell never
 * shows dead entries.
 */
import { createElement, lazy, Suspense, type ComponentType } from 'react';
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

export interface HeaderAction {
  id: string;
  /** Lower comes first (left). */
  order: number;
  /** Renders the action (usually an icon button with its menu); null when it has nothing to show. */
  Component: ComponentType;
}

const routes = new Map<string, RouteModule>();
const headerActionEntries = new Map<string, HeaderAction>();
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

export function registerHeaderAction(action: HeaderAction): void {
  headerActionEntries.set(action.id, action);
}

export function headerActions(): HeaderAction[] {
  return [...headerActionEntries.values()].sort((a, b) => a.order - b.order);
}

/** A lazily loaded component (a header action, a picker) that renders nothing while it loads. */
export function lazyComponent<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const Loaded = lazy(load);
  return function LazyComponent(props: P) {
    return createElement(Suspense, { fallback: null }, createElement(Loaded, props));
  };
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
