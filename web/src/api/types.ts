/** Wire types of the Portalwright API (`/api/v1`). Unknown extra fields are ignored. */

export interface User {
  id: string | number;
  firstName: string;
  middleName?: string | null;
  lastName: string;
  email: string;
  userName: string;
  admin: boolean;
  lastLoggedIn?: string | null;
  optOutNotification?: boolean;
  publicKey?: string | null;
}

/** A domain role as the profile may report it (arrives in a later API version). */
export interface DomainRole {
  domainId?: string | number;
  domainName?: string;
  role?: string;
  name?: string;
}

export interface ProfileResponse {
  user: User;
  roles?: DomainRole[];
}

export interface LoginResponse {
  id_token: string;
  refresh_token?: string;
  expires_in?: number;
  profile: ProfileResponse;
}

export interface LoginRequest {
  username: string;
  password: string;
}

export interface ResetPasswordRequest {
  userName: string;
  newPassword: string;
}

export interface ConfirmResetPasswordRequest {
  confirmedPassword: string;
  token: string;
  username: string;
}

export interface SsoFeature {
  enabled: boolean;
  label?: string;
  loginUrl?: string;
}

/** The server's settings the screens state or time by, so they never say another number. */
export interface ServerLimits {
  /** The longest a task run may take (--task-timeout), in ms. */
  taskTimeoutMs: number;
  /** How long discarded work stays restorable, in days. */
  discardedWorkDays: number;
}

export interface Features {
  sso?: SsoFeature;
  /** Absent from older servers. */
  limits?: ServerLimits;
}

export interface ProbeLink {
  title: string;
  url: string;
}

/** assets/config/probe.config.json (spec 1 §3 "Probe configuration"). */
export interface ProbeConfig {
  ws: { host: string };
  documentation: ProbeLink[];
  legalDocs: ProbeLink[];
  links: ProbeLink[];
  uploadFilter: { image: string[] };
  /** The release documentation the version dialog links to (spec 3 §2); optional. */
  releaseDocumentation?: ProbeLink;
}

export interface Domain {
  id: string | number;
  name: string;
  /** The domain has a logo (GET domain/{id}/logo). */
  hasLogo?: boolean;
}

/** The error object every failing API call answers with (spec 1 §3 "Error object"). */
export interface ErrorObject {
  errorTitle: string;
  errorMessage: string;
  errorCode?: string | number | null;
  errorCodeDesc?: string | null;
  httpStatus: number;
  data?: unknown;
  requestId?: string | null;
  actions?: ErrorAction[];
}

export interface ErrorAction {
  title: string;
  color?: string;
  action?: string;
}
