/**
 * Feature registry: how features plug into the shell without the shell
 * knowing them. A feature module calls the register functions at import time
 * (before the router is created in main.tsx):
 *
 *   registerRoute({ id: 'domain.dashboard', path: 'domain/:domain/dashboard',
 *                   lazy: () => import('./DomainDashboard') });
 *
 * - Routes are mounted inside the signed-in shell. A registered route id also
 *   makes the side-navigation entry with the same id appear (core/menus.ts).
 * - Portal-group selectors (Select Portal, Branch, Language, Page) appear once
 *   their picker is registered.
 * - Profile menu entries (e.g. Edit Profile) open the dialog they register.
 * - Header actions (notification centre, file watcher, local changes; later the task runner,
 *   search and previews) appear in the header bar, left of the documentation and profile
 *   menus, in `order`. Register a lazy component so the login bundle stays small.
 * - The file editor (features/editors) is what the File Explorer (features/assets) opens a file
 *   in: the editors use the explorer's asset picker, so the explorer cannot import them.
 * - Navigation holds (the task runner's running tasks) are awaited before a portal switch, a
 *   branch switch or a logout (core/portalChain, core/session), which cannot import features.
 *
 * Nothing is rendered for a feature that has not registered: the shell never
 * shows dead entries.
 */
import { createElement, lazy, Suspense, type ComponentType } from 'react';
import type { PortalSelectorKind } from './menus';
import { SELECTOR_IDS } from './menus';

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

export interface FileEditorProps {
  domain: string;
  portal: string;
  path: string;
  /** The schema-driven JSON editor or the source editor. */
  mode: 'json' | 'source';
  onClose: () => void;
  /** Where to go in the file (the Readiness screen's "Open"): a JSON form's field, or a line. */
  pointer?: string;
  line?: number;
}

const routes = new Map<string, RouteModule>();
const headerActionEntries = new Map<string, HeaderAction>();
const selectors = new Map<PortalSelectorKind, ComponentType<SelectorPickerProps>>();
const profileEntries = new Map<string, ProfileMenuEntry>();
let fileEditorComponent: ComponentType<FileEditorProps> | undefined;
const navigationHolds = new Set<() => Promise<void>>();

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

export function registerFileEditor(editor: ComponentType<FileEditorProps>): void {
  fileEditorComponent = editor;
}

/** The registered file editor; undefined when features/editors is not registered. */
export function fileEditor(): ComponentType<FileEditorProps> | undefined {
  return fileEditorComponent;
}

/** Awaited before a portal or branch switch and a logout (spec 3 §4); resolves when nothing holds. */
export function registerNavigationHold(hold: () => Promise<void>): void {
  navigationHolds.add(hold);
}

export async function holdNavigation(): Promise<void> {
  for (const hold of navigationHolds) await hold();
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
