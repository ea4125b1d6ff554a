/**
 * Release readiness (issue 29): the Readiness screen, the dashboard card, the gate in the
 * loadables flow and the shared query the editors mark their files, keys and fields from.
 */
export { useWorkspaceReadiness, useFindingsByPath, useFileFindings, findingsByPath } from './useReadiness';
