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
