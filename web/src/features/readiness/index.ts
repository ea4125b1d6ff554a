/**
 * Release readiness (issue 29): the Readiness screen, the dashboard card, the gate in the
 * loadables flow and the shared query the editors mark their files, keys and fields from.
 */
export { useWorkspaceReadiness, useFindingsByPath, useFileFindings, findingsByPath } from './useReadiness';
// The editors' marks (issue 29 item 2): icons, field messages, a file's list, and where findings go.
export { ErrorCountMark, FieldFindings, FindingMark, FindingsAlert, readinessErrorsLabel } from './FindingMark';
export {
  errorCounts,
  findingPath,
  findingsByPointer,
  folderErrorCount,
  formFieldPointers,
  lineAnnotations,
  placeFindings,
  pointerOf,
  pointerSegments,
  worstSeverity,
  type LineAnnotation,
} from './fieldFindings';
// The Portal Dashboard's card and the loadables' panel of a commit (issue 29 items 3 and 4).
export { ReadinessCard } from './ReadinessCard';
export { CommitReadinessSummary, ReadinessPanel } from './ReadinessPanel';
export { findingLink, type LinkContext } from './model';
