// Generated from the OpenAPI document (internal/apidoc/openapi.json) by internal/apidoc/gen:
// do not edit; `make api` writes it again. docs/api.md says what each call does.

export interface AccessAccountGroup {
  groupName: string;
}

export interface AccessAccountMeta {
  createdAt: string;
  groupCount: number;
  hasLogo: boolean;
  id: number;
  memberCount: number;
  name: string;
  portalCount: number;
}

export interface AccessDomain {
  createdAt: string;
  hasLogo: boolean;
  id: number;
  name: string;
}

export interface AccessDomainRoles {
  domainId: number;
  domainName: string;
  roles: string[];
}

export interface AccessGroup {
  groupName: string;
  id: number;
  permissions: string[];
}

export interface AccessGroupBody {
  groupName?: string;
  name?: string;
  permissions?: string[];
}

export interface AccessIdBody {
  id?: string;
}

export interface AccessMember {
  admin: boolean;
  email: string;
  firstName: string;
  id: number;
  lastName: string;
  userName: string;
}

export interface AccessNameBody {
  name?: string;
}

export interface AccessUserInfo {
  accountGroups: AccessAccountGroup[];
  userId: number;
}

export interface AccessUserRoles {
  admin: boolean;
  domainId: number;
  permissions: string[];
  roles: string[];
}

export interface AdminEmailRequest {
  domainId?: number;
  message?: string;
  subject?: string;
  userIds?: number[];
}

export interface AdminEmailResult {
  noEmail: string[];
  queued: number;
}

export interface AdminPreference {
  bannerMessage: string;
  bannerStatus: string;
  id: number;
  updatedAt: string;
  updatedBy: string;
}

export interface ApperrError {
  data: unknown;
  errorCode: string;
  errorCodeDesc: string;
  errorMessage: string;
  errorTitle: string;
  httpStatus: number;
}

export interface AppinfoFeatures {
  limits: AppinfoLimits;
  sso: AppinfoSSO;
}

export interface AppinfoInfoMessage {
  message: string;
}

export interface AppinfoKeyValue {
  key: string;
  value: string;
}

export interface AppinfoLimits {
  discardedWorkDays: number;
  taskTimeoutMs: number;
}

export interface AppinfoSSO {
  enabled: boolean;
  label: string;
  loginUrl: string;
}

export interface AssetAsset {
  canEdit: AssetCanEdit;
  children: AssetAsset[];
  createdDate: string;
  dimensions: string;
  editorMode?: string;
  hasChildren: boolean;
  height: number;
  isHidden: boolean;
  kind?: string;
  name: string;
  path: string;
  size: number;
  strictJson?: boolean;
  target?: string;
  type: string;
  version?: string;
  width: number;
}

export interface AssetCanEdit {
  editable: boolean;
  toolTipMessage: string;
}

export interface AssetDeleteError {
  error: string;
}

export interface AssetDeleteResult {
  error?: AssetDeleteError;
  file: string;
  result: boolean;
}

export interface AssetRenameBody {
  newPath?: string;
  oldPath?: string;
}

export interface AssetSaveBody {
  data?: string | null;
}

export interface AssetSize {
  height: number;
  width: number;
}

export interface AssetSizeLimits {
  allowedExtensions: string[];
  portal: {
    default: AssetTypeLimit;
    image: AssetTypeLimit;
    pdf: AssetTypeLimit;
    video: AssetTypeLimit;
  };
  totalLimitBytes: number;
}

export interface AssetTypeLimit {
  assocExts: string[];
  sizeLimitBytes: number;
}

export interface AssetUploadError {
  error: string;
  filename: string;
}

export interface AssetUploadResult {
  errors: AssetUploadError[];
  success: string[];
}

export interface AuditEntry {
  at: string;
  category: string;
  clientAddr: string;
  details: string;
  domainId: number | null;
  entity: string;
  entityId: string;
  historyType: string;
  id: number;
  userId: number | null;
  userName: string;
}

export interface AuditKeyValue {
  key: string;
  value: string;
}

export interface CheckFinding {
  fix?: string;
  id: string;
  key?: string;
  language?: string;
  line?: number;
  message: string;
  path: string;
  pointer?: string;
  rule: string;
  severity: string;
  target?: string;
}

export interface CheckIgnoredFinding {
  at: string;
  by: string;
  fix?: string;
  id: string;
  key?: string;
  language?: string;
  line?: number;
  message: string;
  path: string;
  pointer?: string;
  reason: string;
  rule: string;
  severity: string;
  target?: string;
}

export interface CheckLengthBudget {
  maxChars: number;
  pattern: string;
}

export interface CheckSummary {
  byRule: { [key: string]: number };
  errors: number;
  files: number;
  ignored: number;
  infos: number;
  warnings: number;
}

export interface CollabMergeBody {
  base?: string | null;
  choices?: { [key: string]: MergeChoice };
  mine?: string | null;
  path?: string;
}

export interface CollabResolveBody {
  choices?: WorkspaceMergeChoices;
  tip?: string;
}

export interface CollabReviewFiles {
  files: { [key: string]: string };
}

export interface EditingCommitAnswer {
  code?: string;
  commitId: string;
  committed: boolean;
  discarded?: string;
  message?: string;
  ruleWarnings: string[];
  upstreamWarning?: string;
}

export interface EditingConflictFile {
  base: string | null;
  binary: boolean;
  conflicts: MergeConflict[];
  kind: string;
  mine: string | null;
  path: string;
  schema: string | null;
  theirs: string | null;
}

export interface EditingContentCheck {
  branch: string;
  ruleWarnings: string[];
}

export interface EditingEditMerge {
  conflicts: MergeConflict[];
  kind: string;
  merged: string | null;
  theirs: string;
  unresolved: number;
  version: string;
}

export interface EditingEngineInfo {
  engineType: string;
  engineVersion: string;
}

export interface EditingLanguageSettings {
  defaultLanguage: string;
  languageBasePath: string;
  languageMode: string;
  languages: string[];
  retainDefaultsOnCreate: boolean;
  translationsBasePath: string;
}

export interface EditingModeChange {
  new: string;
  old: string;
}

export interface EditingPerson {
  firstName: string;
  id: number;
  lastName: string;
  userName: string;
}

export interface EditingReview {
  after: string | null;
  before: string | null;
  change: string;
  diff: MergeDiff | null;
  image: boolean;
  kind: string;
  modeChange?: EditingModeChange;
  page: boolean;
  path: string;
  tooLarge: boolean;
}

export interface EditingSettings {
  commitMessageRule?: string;
  condenseWidgetData: boolean | null;
  engineType: string;
  formatVersion?: number;
  languageSettings: EditingLanguageSettings;
  name?: string;
  oneMediaInterstitialSupported: boolean;
  retainLanguageValuesOnCreate: boolean | null;
  scope: string;
  siteRoots?: string[];
  storedIn?: string;
  supportLevel: string;
  taskRunnerSettings: EditingTaskRunnerSettings;
  type?: string;
  userGitUrls?: string[];
}

export interface EditingTaskRunnerSettings {
  active: boolean;
  autoRun: boolean;
  dockerFileContent: string;
  extensions: string[];
  outputPath: string;
  templateName: string;
}

export interface EditingWorkspaceChange {
  aheadCount: number;
  behindCount: number;
  branch: string;
  changes: { [key: string]: string };
  domainName: string;
  hasChanges: boolean;
  portalName: string;
  user: EditingPerson;
}

export interface GitlogHistoryCommit {
  author: string;
  commitId: string;
  email: string;
  files: GitlogHistoryFile[];
  filesTotal: number;
  message: string;
  time: string;
}

export interface GitlogHistoryFile {
  change: string;
  path: string;
}

export interface GitlogStatistics {
  branch: string;
  bytes: number;
  commits: number;
  contributors: number;
  files: number;
  lastAuthor: string;
  lastCommit: string;
  lastModified: string;
  pages: number;
}

export interface HandoverAttempt {
  at: string;
  attempt: number;
  durationMs: number;
  error: string;
  httpStatus: number;
  outcome: string;
}

export interface HandoverDelivery {
  attempts: number;
  attempts_log: HandoverAttempt[];
  createdAt: string;
  createdBy: number;
  deliveredAt: string | null;
  id: number;
  lastAttemptAt: string | null;
  lastError: string;
  loadableId: number;
  nextAttemptAt: string | null;
  status: string;
  system: string;
  target: string;
}

export interface HandoverTarget {
  description: string;
  dir?: string;
  kind: string;
  name: string;
  system: string;
  url?: string;
}

export interface HostsyncUpstreamBranch {
  ahead: number;
  behind: number;
  branch: string;
  deletedOnHost: boolean;
  onUpstream: boolean;
}

export interface HttpxErrorBody {
  data: unknown;
  errorCode: string;
  errorCodeDesc: string;
  errorMessage: string;
  errorTitle: string;
  httpStatus: number;
  requestId: string;
}

export interface IdentityAdminUser {
  admin?: boolean;
  email?: string;
  firstName?: string;
  lastName?: string;
  middleName?: string;
  optOutNotification?: boolean;
  userName?: string;
}

export interface IdentityConfirmRequest {
  confirmPassword?: string;
  confirmedPassword?: string;
  token?: string;
  username?: string;
  uuid?: string;
}

export interface IdentityForceResetBody {
  id?: number;
  userName?: string;
}

export interface IdentityKeyPair {
  privateKey: string;
  publicKey: string;
}

export interface IdentityLoginRequest {
  password?: string;
  username?: string;
}

export interface IdentityMessageAnswer {
  message: string;
}

export interface IdentityPasswordChange {
  currentPassword?: string;
  newPassword?: string;
}

export interface IdentityProfile {
  user: IdentityUser | null;
}

export interface IdentityProfileUpdate {
  admin?: boolean | null;
  email?: string;
  firstName?: string;
  id?: number;
  lastName?: string;
  middleName?: string;
  optOutNotification?: boolean | null;
}

export interface IdentityPublicKeyBody {
  publicKey?: string;
}

export interface IdentityResetRequest {
  newPassword?: string;
  userName?: string;
}

export interface IdentityTokens {
  expires_in: number;
  id_token: string;
  profile: IdentityProfile | null;
  refresh_token: string;
  token_type: string;
}

export interface IdentityUser {
  admin: boolean;
  email: string;
  firstName: string;
  id: number;
  lastLoggedIn: string | null;
  lastName: string;
  middleName: string;
  optOutNotification: boolean;
  publicKey: string;
  userName: string;
}

export interface LanguageEntry {
  alpha2: string;
  alpha3b: string;
  code: string;
  defaultName: string;
  direction: string;
  nativeName: string;
}

export interface LoadableAcceptedBy {
  at: string;
  ipAddress: string;
  user: LoadablePerson;
}

export interface LoadableApprovalOverride {
  errors: number;
  reason: string;
}

export interface LoadableApproveBody {
  overrideReason?: string;
}

export interface LoadableAsset {
  path: string;
  size: number;
}

export interface LoadableCopyright {
  accepted?: LoadableAcceptedBy;
  assets?: LoadableAsset[];
  metaData: LoadableCopyrightMeta;
  statement: string;
}

export interface LoadableCopyrightMeta {
  accept: boolean;
  ipAddress: string;
}

export interface LoadableGitValidation {
  branch: string;
  commitId: string;
  message: string;
  ruleWarnings: string[];
  valid: boolean;
}

export interface LoadableHandOverBody {
  target?: string;
}

export interface LoadableLoadable {
  approvalOverride: LoadableApprovalOverride | null;
  approvedBy: LoadablePerson | null;
  commitId: string;
  createdAt: string;
  createdBy: LoadablePerson;
  decidedAt: string | null;
  domainId: number;
  error: NoticeErrorInfo | null;
  fileName: string;
  generatedAt: string | null;
  gitRef: string;
  id: number;
  name: string;
  partNumber: string;
  portalId: number;
  rejectReason: string;
  rejectedBy: LoadablePerson | null;
  sha256: string;
  size: number;
  status: string;
  type: string;
  version: string;
  versionPrefix: string;
}

export interface LoadableNameAnswer {
  name: string;
}

export interface LoadablePartNumberAnswer {
  partNumber: string;
}

export interface LoadablePerson {
  id: number;
  userName: string;
}

export interface LoadablePreviewBody {
  emulator?: string;
  versionTag?: string;
}

export interface LoadableRejectBody {
  reason?: string;
}

export interface LoadableRequest {
  copyrightData?: LoadableCopyright;
  gitRef?: string;
  name?: string;
  partNumber?: string;
  type?: string;
  versionPrefix?: string;
}

export interface MergeChoice {
  take?: string;
  value?: string | null;
}

export interface MergeConflict {
  base: string | null;
  id: string;
  mine: string | null;
  path: string;
  reason?: string;
  theirs: string | null;
}

export interface MergeDiff {
  binary: boolean;
  fields: MergeFieldChange[];
  hunks: MergeHunk[];
  kind: string;
  truncated: boolean;
}

export interface MergeDiffLine {
  op: string;
  text: string;
}

export interface MergeFieldChange {
  new: string | null;
  old: string | null;
  op: string;
  path: string;
  pointer: string;
}

export interface MergeHunk {
  lines: MergeDiffLine[];
  newLines: number;
  newStart: number;
  oldLines: number;
  oldStart: number;
}

export interface NoticeErrorInfo {
  errorCode?: string;
  errorMessage: string;
  errorTitle: string;
  output?: string;
}

export interface NotifyMessage {
  attempts: number;
  createdAt: string;
  id: number;
  kind: string;
  lastError: string;
  nextAttemptAt: string | null;
  sentAt: string | null;
  status: string;
  subject: string;
  text: string;
  to: string;
  toName: string;
  userId: number | null;
}

export interface PageAddRequest {
  deactived?: boolean;
  hidePage?: boolean;
  html?: string | null;
  id?: string;
  parameters?: PageParameter[];
  parentId?: string;
  position?: number | null;
  sitemapVersion?: string | null;
  status?: string;
  title?: string;
  url?: string;
}

export interface PageBatchItem {
  data?: unknown;
  file?: string;
  query?: string;
  type?: string;
  version?: string | null;
}

export interface PageBatchResult {
  error?: ApperrError;
  file: string;
  path?: string;
  version?: string;
}

export interface PageCloneRequest {
  id?: string;
  sitemapVersion?: string | null;
  title?: string;
}

export interface PageDeleted {
  id: string;
  sitemapVersion: string;
}

export interface PageHit {
  key?: string;
  label: string;
  language?: string;
  line?: number;
  pageId?: string;
  path: string;
  snippet: string;
  title: string;
  type: string;
  widgetId?: string;
}

export interface PageMasterPage {
  html: string;
  language: string;
  path: string;
  version: string;
}

export interface PagePage {
  baseUrl?: string;
  branch?: string;
  children: PageSitemapPage[];
  deactived: boolean;
  defaultUrlParams?: { [key: string]: string };
  dirty?: boolean;
  errorMessage?: string;
  hidePage: boolean;
  html: string;
  id: string;
  isMaster?: boolean;
  pageLocation?: string;
  pageParameterValues?: { [key: string]: string };
  pageUrl?: string;
  parameterString?: string;
  parameters: PageParameter[];
  parentId: string;
  path: string;
  position: number;
  pseudoPageId?: string;
  sitemapVersion: string;
  status: string;
  title: string;
  url: string;
  version: string;
}

export interface PageParameter {
  description: string;
  name: string;
  required: boolean;
}

export interface PageSearchResult {
  phrase: string;
  results: PageHit[];
  truncated: boolean;
}

export interface PageSitemapPage {
  baseUrl?: string;
  branch?: string;
  children: PageSitemapPage[];
  deactived: boolean;
  defaultUrlParams?: { [key: string]: string };
  dirty?: boolean;
  errorMessage?: string;
  hidePage: boolean;
  html?: string;
  id: string;
  isMaster?: boolean;
  pageLocation?: string;
  pageParameterValues?: { [key: string]: string };
  pageUrl?: string;
  parameterString?: string;
  parameters: PageParameter[];
  pseudoPageId?: string;
  status: string;
  title: string;
  url: string;
}

export interface PageUpdateRequest {
  deactived?: boolean | null;
  hidePage?: boolean | null;
  html?: string | null;
  id?: string;
  parameters?: PageParameter[] | null;
  parentId?: string | null;
  position?: number | null;
  sitemapVersion?: string | null;
  status?: string | null;
  title?: string | null;
  url?: string | null;
  version?: string | null;
}

export interface PortalBranchBody {
  branch?: string;
  from?: string;
  name?: string;
  source?: string;
  target?: string;
}

export interface PortalBranchName {
  name: string;
}

export interface PortalCategory {
  children: PortalPortal[];
  createdAt?: string;
  deactivated: boolean;
  id: number;
  name: string;
}

export interface PortalCommitBody {
  message?: string;
}

export interface PortalCreateBody {
  branch?: string;
  categoryID?: number | null;
  categoryId?: number | null;
  gitUrl?: string;
  name?: string;
  password?: string;
  portal?: {
    branch?: string;
    categoryId?: number | null;
    name?: string;
    scope?: string;
    type?: string;
    url?: string;
  } | null;
  scope?: string;
  starter?: string;
  templateId?: number;
  type?: string;
  url?: string;
  userName?: string;
}

export interface PortalMicrosite {
  id: number;
  name: string;
  status: string;
  target: string;
}

export interface PortalMicrositeBody {
  microsites?: number[];
  portalId?: number;
}

export interface PortalNameBody {
  name?: string;
}

export interface PortalOpened {
  branch: string;
  portal: PortalPortal | null;
  settings: EditingSettings;
  settingsVersion: string;
  status: WorkspaceStatus | null;
  upstreamWarning?: string;
}

export interface PortalPortal {
  activeBranch: string;
  category: string;
  categoryId: number | null;
  createdAt: string;
  deactivated: boolean;
  domainId: number;
  id: number;
  lastModified: string;
  name: string;
  scope: string;
  source: string;
  status: string;
  type: string;
  url: string;
}

export interface PortalPortalUser {
  firstName: string;
  hasWorkspace: boolean;
  id: number;
  lastName: string;
  userName: string;
}

export interface PortalProbeBody {
  data: unknown;
}

export interface PortalReferences {
  allReferences: string[];
  allTags: string[];
  currentRef: string;
  deletedOnHost: string[];
}

export interface PortalReferencesAnswer {
  allReferences: string[];
}

export interface PortalRevertBody {
  commitId?: string;
}

export interface PortalTemplate {
  accounts: number[];
  builtIn: boolean;
  engineType?: string;
  id: number;
  name: string;
  portalId: number | null;
  starter?: string;
  templateName: string;
  updateError: string;
  updating: boolean;
  url: string;
}

export interface PortalTemplateBody {
  id?: number;
  name?: string;
  portalId?: number | null;
  starter?: string;
  templateName?: string;
}

export interface PortalTemplatePut {
  accounts?: number[];
  id?: number;
  name?: string;
  portalId?: unknown;
  starter?: string | null;
  templateName?: string;
  url?: string | null;
}

export interface PortalUrlBranchesBody {
  gitUrl?: string;
  password?: string;
  userName?: string;
}

export interface PresenceEntry {
  path: string;
  since: string;
  state: string;
  user: EditingPerson;
}

export interface PresenceSetBody {
  path?: string;
  state?: string;
}

export interface PreviewPreview {
  branch: string;
  commitId: string;
  createdAt: string;
  domainId: number;
  domainName: string;
  emulator?: string;
  error: NoticeErrorInfo | null;
  expiresAt: string;
  id: number;
  language: string;
  link: string;
  page: string;
  portalId: number;
  portalName: string;
  status: string;
  type: string;
  userId: number;
  versionTag?: string;
}

export interface PreviewQRAnswer {
  id: number;
  link: string;
  qrCode: string;
}

export interface PreviewRequest {
  branch?: string;
  language?: string;
  page?: string;
  type?: string;
}

export interface PreviewTokenAnswer {
  base: string;
  expiresIn: number;
  token: string;
}

export interface ReadinessIgnoreBody {
  findingId?: string;
  reason?: string;
}

export interface ReadinessOthers {
  branch: string;
  findings: CheckFinding[];
  summary: CheckSummary;
  user: EditingPerson;
}

export interface ReadinessReport {
  branch: string;
  checkedAt: string;
  commitId: string;
  durationMs: number;
  findings: CheckFinding[];
  ignored: CheckIgnoredFinding[];
  source: string;
  summary: CheckSummary;
}

export interface ReadinessSettings {
  gate: boolean;
  lengthBudgets: CheckLengthBudget[];
  sizeBudgetBytes: number;
  version: string;
}

export interface RealtimeTicketAnswer {
  expiresIn: number;
  ticket: string;
}

export interface TaskrunnerLintWarning {
  line?: number;
  message: string;
  rule: string;
  url?: string;
}

export interface TaskrunnerRunError {
  errorMessage: string;
  errorTitle: string;
}

export interface TaskrunnerState {
  error: TaskrunnerRunError | null;
  lastRunDate: string | null;
  lintWarnings: TaskrunnerLintWarning[];
  output: string;
  phase: string;
}

export interface TaskrunnerTemplate {
  description: string;
  dockerFileContent: string;
  name: string;
}

export interface ThumbnailTokenAnswer {
  expiresIn: number;
  token: string;
}

export interface TranslationKeyStatus {
  reason: string;
  status: string;
}

export interface TranslationLanguageStatus {
  default: boolean;
  keys: { [key: string]: TranslationKeyStatus };
  language: string;
}

export interface TranslationReport {
  completed: number;
  incomplete: number;
  keys: TranslationReportKey[];
  language: string;
  missing: number;
  total: number;
}

export interface TranslationReportKey {
  defaultValue: string;
  key: string;
  reason: string;
  status: string;
  value: string;
}

export interface TranslationSaveRequest {
  data?: { [key: string]: { [key: string]: unknown } };
  versions?: { [key: string]: string };
}

export interface TranslationSaved {
  versions: { [key: string]: string };
}

export type TranslationSet = { [key: string]: string };

export interface TranslationTranslations {
  data: { [key: string]: TranslationSet };
  defaultLanguage: string;
  files: { [key: string]: string };
  languageMode: string;
  languages: string[];
  layout: string;
  versions: { [key: string]: string };
}

export interface UpstreamCredentialsInput {
  kind?: string;
  password?: string;
  userName?: string;
}

export interface UpstreamStatus {
  ahead: number;
  authKind: string;
  behind: number;
  branches: HostsyncUpstreamBranch[];
  configured: boolean;
  error: string;
  errorAt: string | null;
  hasCredentials: boolean;
  lastSyncAt: string | null;
  publicKey?: string;
  secretsConfigured: boolean;
  state: string;
  url: string;
  webhookUrl?: string;
}

export interface UpstreamWebhookAnswer {
  fetched: boolean;
  moved: string[];
}

export interface UpstreamWebhookInfo {
  contentType: string;
  secret: string;
  signatureHeader: string;
  tokenHeader: string;
  url: string;
}

export interface ValuehistoryBlame {
  path: string;
  rows: ValuehistoryRow[];
}

export interface ValuehistoryEntry {
  author: string;
  commit: string;
  diff?: MergeHunk[];
  email: string;
  lang?: string;
  message: string;
  new: string | null;
  old: string | null;
  path: string;
  time: string | null;
  uncommitted: boolean;
}

export interface ValuehistoryHistory {
  entries: ValuehistoryEntry[];
  key?: string;
  path: string;
  pointer?: string;
}

export interface ValuehistoryRestoreRequest {
  commit?: string;
  key?: string;
  lang?: string;
  path?: string;
  pointer?: string;
}

export interface ValuehistoryRestored {
  changed: boolean;
  path: string;
  value: string | null;
  version: string;
}

export interface ValuehistoryRow {
  author: string;
  commit: string;
  email: string;
  message: string;
  path: string;
  pointer: string;
  time: string | null;
  uncommitted: boolean;
  value: string | null;
}

export interface WhitelistCheck {
  notAllowed: number;
  scanned: number;
  truncated: boolean;
  urls: WhitelistCheckedURL[];
}

export interface WhitelistCheckedURL {
  allowed: boolean;
  url: string;
  usedIn: WhitelistUsage[];
}

export interface WhitelistEntry {
  url: string;
}

export interface WhitelistSaveRequest {
  baseVersion?: string | null;
  whitelist?: WhitelistEntry[];
}

export interface WhitelistUsage {
  line: number;
  path: string;
}

export interface WhitelistWhitelist {
  version: string;
  whitelist: WhitelistEntry[];
}

export interface WorkspaceCommitResult {
  commitId: string;
  committed: boolean;
  discarded?: string;
  ruleWarnings: string[];
}

export interface WorkspaceConflictFile {
  binary: boolean;
  conflicts: MergeConflict[];
  hasSchema: boolean;
  kind: string;
  path: string;
}

export interface WorkspaceConflictState {
  branch: string;
  files: WorkspaceConflictFile[];
  inConflict: boolean;
  merged: string[];
  tip: string;
}

export interface WorkspaceDiscarded {
  branch: string;
  commits: number;
  files: { [key: string]: string };
  id: string;
  message: string;
  time: string;
}

export interface WorkspaceLocalCommit {
  commitId: string;
  message: string;
  time: string;
}

export type WorkspaceMergeChoices = { [key: string]: { [key: string]: MergeChoice } };

export interface WorkspaceRestored {
  overlapping: string[];
  restored: string[];
  status: WorkspaceStatus | null;
}

export interface WorkspaceStatus {
  aheadCount: number;
  behindCount: number;
  branch: string;
  changes: { [key: string]: string };
  heldBack?: string[];
}

/** What each route takes and answers when it succeeds, by method and path under /api/v1. */
export interface Routes {
  'DELETE /category/{domainId}/{id}': { takes: never; answers: void };
  'DELETE /category/{domainId}/{id}/link': { takes: never; answers: void };
  'DELETE /domain/deleteUser/{domain}/{user}': { takes: never; answers: void };
  'DELETE /domain/{id}': { takes: never; answers: void };
  'DELETE /domain/{id}/logo': { takes: never; answers: void };
  'DELETE /page/{domainId}/{portalId}/{page}': { takes: never; answers: PageDeleted };
  'DELETE /permissions/deleteGroup/{domain}/{group}': { takes: never; answers: void };
  'DELETE /permissions/updateRoles/{user}/{domain}/{role}': { takes: never; answers: void };
  'DELETE /portal/{domainId}/{portalId}': { takes: never; answers: void };
  'DELETE /portal/{domainId}/{portalId}/branches': { takes: never; answers: void };
  'DELETE /presence/{domainId}/{portalId}': { takes: never; answers: void };
  'DELETE /preview/{domainId}/{portalId}/{id}': { takes: never; answers: void };
  'DELETE /readiness/{domainId}/{portalId}/ignore/{findingId}': { takes: never; answers: ReadinessReport };
  'DELETE /template/accounts/{domainId}/templates/{templateId}': { takes: never; answers: void };
  'DELETE /user/delete/{id}': { takes: never; answers: void };
  'GET /admin/outbox': { takes: never; answers: NotifyMessage[] };
  'GET /assets/assetSizeLimits': { takes: never; answers: AssetSizeLimits };
  'GET /assets/{domainId}/{portalId}/buffered/{path}': { takes: never; answers: Blob };
  'GET /assets/{domainId}/{portalId}/src/info/{path}': { takes: never; answers: AssetSize };
  'GET /assets/{domainId}/{portalId}/src/{path}': { takes: never; answers: AssetAsset };
  'GET /category/{domainId}': { takes: never; answers: PortalCategory[] };
  'GET /config/backend-version': { takes: never; answers: string };
  'GET /config/features': { takes: never; answers: AppinfoFeatures };
  'GET /config/infoMessage': { takes: never; answers: AppinfoInfoMessage };
  'GET /document/pub/{name}': { takes: never; answers: string };
  'GET /document/usr/{name}': { takes: never; answers: string };
  'GET /domain/': { takes: never; answers: AccessDomain[] };
  'GET /domain/users/{id}': { takes: never; answers: AccessMember[] };
  'GET /domain/usersInfo/{id}': { takes: never; answers: AccessUserInfo[] };
  'GET /domain/{id}/account-meta': { takes: never; answers: AccessAccountMeta };
  'GET /domain/{id}/candidates': { takes: never; answers: AccessMember[] };
  'GET /domain/{id}/logo': { takes: never; answers: Blob };
  'GET /history/{domainId}/{portalId}/file': { takes: never; answers: ValuehistoryHistory };
  'GET /history/{domainId}/{portalId}/file/blame': { takes: never; answers: ValuehistoryBlame };
  'GET /history/{domainId}/{portalId}/page/{page}': { takes: never; answers: ValuehistoryHistory };
  'GET /history/{domainId}/{portalId}/translation': { takes: never; answers: ValuehistoryHistory };
  'GET /history/{domainId}/{portalId}/translation/blame': { takes: never; answers: ValuehistoryBlame };
  'GET /language': { takes: never; answers: LanguageEntry[] };
  'GET /language/{code}': { takes: never; answers: LanguageEntry };
  'GET /loadable/{domainId}/{portalId}': { takes: never; answers: LoadableLoadable[] };
  'GET /loadable/{domainId}/{portalId}/copyright': { takes: never; answers: LoadableCopyright };
  'GET /loadable/{domainId}/{portalId}/download/{name}': { takes: never; answers: Blob };
  'GET /loadable/{domainId}/{portalId}/generateName': { takes: never; answers: LoadableNameAnswer };
  'GET /loadable/{domainId}/{portalId}/getCopyright/{id}': { takes: never; answers: LoadableCopyright };
  'GET /loadable/{domainId}/{portalId}/gitvalidation': { takes: never; answers: LoadableGitValidation };
  'GET /loadable/{domainId}/{portalId}/handover/{id}': { takes: never; answers: HandoverDelivery[] };
  'GET /loadable/{domainId}/{portalId}/latestloadables': { takes: never; answers: LoadableLoadable[] };
  'GET /loadable/{domainId}/{portalId}/unity/partNumber': { takes: never; answers: LoadablePartNumberAnswer };
  'GET /loadable/{domainId}/{portalId}/unity/profiles/{id}': { takes: never; answers: HandoverTarget[] };
  'GET /lookup/accounts/{domainId}/{entityId}/entities/{entity}/history': { takes: never; answers: AuditEntry[] };
  'GET /lookup/type/historyType/category/{category}': { takes: never; answers: AuditKeyValue[] };
  'GET /lookup/{enum}': { takes: never; answers: AppinfoKeyValue[] };
  'GET /microsite/{domainId}/microsite': { takes: never; answers: PortalMicrosite[] };
  'GET /microsite/{domainId}/{portalId}/microsite': { takes: never; answers: PortalMicrosite[] };
  'GET /openapi.json': { takes: never; answers: unknown };
  'GET /page/{domainId}/{portalId}/sitemap': { takes: never; answers: PageSitemapPage };
  'GET /page/{domainId}/{portalId}/{page}': { takes: never; answers: PagePage };
  'GET /permissions/catalogue': { takes: never; answers: string[] };
  'GET /permissions/getDomains/{userId}/{role}': { takes: never; answers: AccessDomain[] };
  'GET /permissions/getGroups/{domain}': { takes: never; answers: AccessGroup[] };
  'GET /permissions/getPermissions/{domain}/{group}': { takes: never; answers: string[] };
  'GET /permissions/getRoles/{domain}': { takes: never; answers: string[] };
  'GET /permissions/getUserRoles/{user}/{domain}': { takes: never; answers: AccessUserRoles };
  'GET /portal/load/{domainId}/{portalId}/probeSettings': { takes: never; answers: PortalProbeBody };
  'GET /portal/load/{domainId}/{portalId}/users': { takes: never; answers: PortalPortalUser[] };
  'GET /portal/{domainId}': { takes: never; answers: PortalPortal[] };
  'GET /portal/{domainId}/categorized': { takes: never; answers: PortalCategory[] };
  'GET /portal/{domainId}/{portalId}/branches': { takes: never; answers: string[] };
  'GET /portal/{domainId}/{portalId}/check-content': { takes: never; answers: EditingContentCheck };
  'GET /portal/{domainId}/{portalId}/commits': { takes: never; answers: GitlogHistoryCommit[] };
  'GET /portal/{domainId}/{portalId}/engine-version': { takes: never; answers: EditingEngineInfo };
  'GET /portal/{domainId}/{portalId}/local-changes': { takes: never; answers: WorkspaceStatus };
  'GET /portal/{domainId}/{portalId}/local-commits': { takes: never; answers: WorkspaceLocalCommit[] };
  'GET /portal/{domainId}/{portalId}/masterpage/{language}': { takes: never; answers: PageMasterPage };
  'GET /portal/{domainId}/{portalId}/open': { takes: never; answers: PortalOpened };
  'GET /portal/{domainId}/{portalId}/search': { takes: never; answers: PageSearchResult };
  'GET /portal/{domainId}/{portalId}/statistics': { takes: never; answers: GitlogStatistics };
  'GET /portal/{domainId}/{portalId}/wsChanges/{branch}': { takes: never; answers: EditingWorkspaceChange[] };
  'GET /portal_branch/allReferences/{domainId}/{portalId}': { takes: never; answers: PortalReferences };
  'GET /portal_branch/branches/active/{domainId}/{portalId}': { takes: never; answers: string };
  'GET /preference/all': { takes: never; answers: AdminPreference[] };
  'GET /presence/{domainId}/{portalId}': { takes: never; answers: PresenceEntry[] };
  'GET /preview/qrCode/{id}': { takes: never; answers: PreviewQRAnswer };
  'GET /preview/{domainId}/{portalId}/latest': { takes: never; answers: PreviewPreview };
  'GET /preview/{domainId}/{portalId}/{id}': { takes: never; answers: PreviewPreview };
  'GET /preview/{token}/{domainId}/{portalId}/{type}/{ref}/{path}': { takes: never; answers: Blob };
  'GET /readiness/{domainId}/{portalId}': { takes: never; answers: ReadinessReport };
  'GET /readiness/{domainId}/{portalId}/commit/{commitId}': { takes: never; answers: ReadinessReport };
  'GET /readiness/{domainId}/{portalId}/others': { takes: never; answers: ReadinessOthers[] };
  'GET /readiness/{domainId}/{portalId}/settings': { takes: never; answers: ReadinessSettings };
  'GET /search/portals': { takes: never; answers: PortalPortal[] };
  'GET /settings/{domainId}/{portalId}': { takes: never; answers: EditingSettings };
  'GET /settings/{domainId}/{portalId}/gitUrls': { takes: never; answers: string[] };
  'GET /template/{domainId}': { takes: never; answers: PortalTemplate[] };
  'GET /thumbnail/{domainId}/{portalId}/{branch}/thumbnail/{path}': { takes: never; answers: Blob };
  'GET /translation/{domainId}/{portalId}': { takes: never; answers: TranslationTranslations };
  'GET /translation/{domainId}/{portalId}/report/{language}': { takes: never; answers: TranslationReport };
  'GET /translation/{domainId}/{portalId}/status/{language}': { takes: never; answers: TranslationLanguageStatus };
  'GET /upstream/{domainId}/{portalId}': { takes: never; answers: UpstreamStatus };
  'GET /upstream/{domainId}/{portalId}/webhook': { takes: never; answers: UpstreamWebhookInfo };
  'GET /user/all': { takes: never; answers: IdentityUser[] };
  'GET /user/profile': { takes: never; answers: IdentityProfile };
  'GET /user/refresh': { takes: never; answers: IdentityTokens };
  'GET /user/sso/callback': { takes: never; answers: void };
  'GET /user/sso/login': { takes: never; answers: void };
  'GET /user/{id}/roles': { takes: never; answers: AccessDomainRoles[] };
  'GET /whitelist/{domainId}/{portalId}/check-portal': { takes: never; answers: WhitelistCheck };
  'GET /whitelist/{domainId}/{portalId}/get-whitelist': { takes: never; answers: WhitelistWhitelist };
  'GET /workspace-build/{domainId}/{portalId}/dockerfile/{name}': { takes: never; answers: string };
  'GET /workspace-build/{domainId}/{portalId}/lint': { takes: never; answers: TaskrunnerLintWarning[] };
  'GET /workspace-build/{domainId}/{portalId}/output': { takes: never; answers: string };
  'GET /workspace-build/{domainId}/{portalId}/state': { takes: never; answers: TaskrunnerState };
  'GET /workspace-build/{domainId}/{portalId}/templates': { takes: never; answers: TaskrunnerTemplate[] };
  'GET /workspace-conflicts/{domainId}/{portalId}': { takes: never; answers: WorkspaceConflictState };
  'GET /workspace-conflicts/{domainId}/{portalId}/file': { takes: never; answers: EditingConflictFile };
  'GET /workspace-discarded/{domainId}/{portalId}': { takes: never; answers: WorkspaceDiscarded[] };
  'GET /workspace-review/{domainId}/{portalId}': { takes: never; answers: EditingReview };
  'GET /workspace-review/{domainId}/{portalId}/files': { takes: never; answers: CollabReviewFiles };
  'GET /workspace-review/{domainId}/{portalId}/raw': { takes: never; answers: Blob };
  'GET /workspace/frame/{domainId}/{portalId}/{path}': { takes: never; answers: Blob };
  'GET /workspace/{domainId}/{portalId}/{branch}/{path}': { takes: never; answers: Blob };
  'GET /workspace/{ticket}/{domainId}/{portalId}/{path}': { takes: never; answers: void };
  'GET /workspace/{token}/{domainId}/{portalId}/{path}': { takes: never; answers: Blob };
  'GET /ws': { takes: never; answers: void };
  'HEAD /loadable/{domainId}/{portalId}/download/{name}': { takes: never; answers: Blob };
  'POST /admin/outbox/{id}/retry': { takes: never; answers: void };
  'POST /assets/{domainId}/{portalId}/delete': { takes: string[]; answers: AssetDeleteResult[] };
  'POST /assets/{domainId}/{portalId}/folder/create': { takes: string[]; answers: AssetAsset };
  'POST /assets/{domainId}/{portalId}/multi/src/{path}': { takes: FormData; answers: AssetUploadResult };
  'POST /assets/{domainId}/{portalId}/src/{path}': { takes: AssetSaveBody; answers: AssetAsset };
  'POST /category/{domainId}': { takes: PortalNameBody; answers: PortalCategory };
  'POST /category/{domainId}/{id}/link': { takes: never; answers: void };
  'POST /domain/': { takes: AccessNameBody; answers: AccessDomain };
  'POST /domain/{id}/addUser': { takes: AccessIdBody; answers: void };
  'POST /history/{domainId}/{portalId}/file/restore': { takes: ValuehistoryRestoreRequest; answers: ValuehistoryRestored };
  'POST /history/{domainId}/{portalId}/page/{page}/restore': { takes: ValuehistoryRestoreRequest; answers: ValuehistoryRestored };
  'POST /history/{domainId}/{portalId}/translation/restore': { takes: ValuehistoryRestoreRequest; answers: ValuehistoryRestored };
  'POST /loadable/{domainId}/{portalId}': { takes: LoadableRequest; answers: LoadableLoadable };
  'POST /loadable/{domainId}/{portalId}/approve/{id}': { takes: LoadableApproveBody; answers: LoadableLoadable };
  'POST /loadable/{domainId}/{portalId}/generate/{id}': { takes: never; answers: LoadableLoadable };
  'POST /loadable/{domainId}/{portalId}/handover/{id}/retry/{deliveryId}': { takes: never; answers: HandoverDelivery };
  'POST /loadable/{domainId}/{portalId}/preview': { takes: LoadablePreviewBody; answers: PreviewPreview };
  'POST /loadable/{domainId}/{portalId}/scmdb/{id}': { takes: LoadableHandOverBody; answers: HandoverDelivery };
  'POST /loadable/{domainId}/{portalId}/unity/{id}': { takes: LoadableHandOverBody; answers: HandoverDelivery };
  'POST /page/{domainId}/{portalId}': { takes: PageAddRequest; answers: PagePage };
  'POST /page/{domainId}/{portalId}/clone/{page}': { takes: PageCloneRequest; answers: PagePage };
  'POST /permissions/createGroup/{domain}': { takes: AccessGroupBody; answers: AccessGroup };
  'POST /portal/clone/{domainId}/{portalId}': { takes: PortalCreateBody; answers: PortalPortal };
  'POST /portal/create_template/{domainId}': { takes: PortalCreateBody; answers: PortalPortal };
  'POST /portal/create_url/{domainId}': { takes: PortalCreateBody; answers: PortalPortal };
  'POST /portal/save/{domainId}/{portalId}/probeSettings': { takes: PortalProbeBody; answers: void };
  'POST /portal/{domainId}/{portalId}/batch': { takes: PageBatchItem[]; answers: PageBatchResult[] };
  'POST /portal/{domainId}/{portalId}/branches': { takes: PortalBranchBody; answers: PortalBranchName };
  'POST /portal/{domainId}/{portalId}/commits': { takes: PortalCommitBody; answers: EditingCommitAnswer };
  'POST /portal/{domainId}/{portalId}/revert': { takes: PortalRevertBody; answers: WorkspaceCommitResult };
  'POST /portal_branch/branches/template/{domainId}/': { takes: PortalTemplateBody; answers: PortalReferencesAnswer };
  'POST /portal_branch/branches/url/{domainId}': { takes: PortalUrlBranchesBody; answers: PortalReferencesAnswer };
  'POST /preview/{domainId}/{portalId}': { takes: PreviewRequest; answers: PreviewPreview };
  'POST /readiness/{domainId}/{portalId}/ignore': { takes: ReadinessIgnoreBody; answers: ReadinessReport };
  'POST /template/accounts/{domainId}/templates': { takes: PortalTemplateBody; answers: PortalTemplate };
  'POST /thumbnail/{domainId}/{portalId}/token': { takes: never; answers: ThumbnailTokenAnswer };
  'POST /upstream/webhook/{portalId}': { takes: Blob; answers: UpstreamWebhookAnswer };
  'POST /upstream/{domainId}/{portalId}/sync': { takes: never; answers: UpstreamStatus };
  'POST /upstream/{domainId}/{portalId}/webhook': { takes: never; answers: UpstreamWebhookInfo };
  'POST /user/confirm-reset-password': { takes: IdentityConfirmRequest; answers: IdentityTokens };
  'POST /user/create': { takes: IdentityAdminUser; answers: IdentityUser };
  'POST /user/force-reset-password': { takes: IdentityForceResetBody; answers: void };
  'POST /user/login': { takes: IdentityLoginRequest; answers: IdentityTokens };
  'POST /user/logout': { takes: never; answers: void };
  'POST /user/reset-password': { takes: IdentityResetRequest; answers: IdentityMessageAnswer };
  'POST /user/send-email': { takes: AdminEmailRequest; answers: AdminEmailResult };
  'POST /workspace-build/{domainId}/{portalId}/clear': { takes: never; answers: TaskrunnerState };
  'POST /workspace-conflicts/{domainId}/{portalId}/resolve': { takes: CollabResolveBody; answers: EditingCommitAnswer };
  'POST /workspace-discarded/{domainId}/{portalId}/{id}/restore': { takes: never; answers: WorkspaceRestored };
  'POST /workspace-merge/{domainId}/{portalId}': { takes: CollabMergeBody; answers: EditingEditMerge };
  'POST /workspace/{domainId}/{portalId}/token': { takes: never; answers: PreviewTokenAnswer };
  'POST /ws/ticket': { takes: never; answers: RealtimeTicketAnswer };
  'PUT /assets/{domainId}/{portalId}/file/rename': { takes: AssetRenameBody; answers: AssetAsset };
  'PUT /assets/{domainId}/{portalId}/folder/rename': { takes: AssetRenameBody; answers: AssetAsset };
  'PUT /category/{domainId}/{id}': { takes: PortalNameBody; answers: void };
  'PUT /domain/{id}': { takes: AccessNameBody; answers: AccessDomain };
  'PUT /domain/{id}/logo': { takes: Blob; answers: void };
  'PUT /loadable/{domainId}/{portalId}/reject/{id}': { takes: LoadableRejectBody; answers: LoadableLoadable };
  'PUT /microsite/{domainId}/microsite': { takes: PortalMicrositeBody; answers: void };
  'PUT /microsite/{domainId}/microsite/unlink': { takes: PortalMicrositeBody; answers: void };
  'PUT /page/{domainId}/{portalId}': { takes: PageUpdateRequest; answers: PagePage };
  'PUT /permissions/updatePermissions/{domain}/{group}': { takes: string[]; answers: string[] };
  'PUT /permissions/updateRoles/{user}/{domain}/{role}': { takes: never; answers: void };
  'PUT /portal/activate/{domainId}/{portalId}': { takes: never; answers: PortalPortal };
  'PUT /portal/deactivate/{domainId}/{portalId}': { takes: never; answers: PortalPortal };
  'PUT /portal/{domainId}/{portalId}/branches': { takes: PortalBranchBody; answers: void };
  'PUT /portal/{domainId}/{portalId}/reset/{branch}': { takes: never; answers: WorkspaceStatus };
  'PUT /preference/update': { takes: AdminPreference; answers: AdminPreference };
  'PUT /presence/{domainId}/{portalId}': { takes: PresenceSetBody; answers: void };
  'PUT /readiness/{domainId}/{portalId}/settings': { takes: ReadinessSettings; answers: ReadinessSettings };
  'PUT /settings/{domainId}/{portalId}': { takes: EditingSettings; answers: EditingSettings };
  'PUT /template/accounts/{domainId}/templates': { takes: PortalTemplatePut; answers: PortalTemplate };
  'PUT /translation/{domainId}/{portalId}': { takes: TranslationSaveRequest; answers: TranslationSaved };
  'PUT /upstream/{domainId}/{portalId}/credentials': { takes: UpstreamCredentialsInput; answers: UpstreamStatus };
  'PUT /user/createkey': { takes: never; answers: IdentityKeyPair };
  'PUT /user/password': { takes: IdentityPasswordChange; answers: void };
  'PUT /user/publickey': { takes: IdentityPublicKeyBody; answers: IdentityUser };
  'PUT /user/update': { takes: IdentityProfileUpdate; answers: IdentityUser };
  'PUT /whitelist/{domainId}/{portalId}/save-whitelist': { takes: WhitelistSaveRequest; answers: WhitelistWhitelist };
  'PUT /workspace-build/{domainId}/{portalId}/build': { takes: never; answers: TaskrunnerState };
}
