/** Wire types of the Portalwright API (`/api/v1`). Unknown extra fields are ignored. */
import type * as gen from './types.gen';

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

export type LoginRequest = gen.IdentityLoginRequest;

export type ResetPasswordRequest = gen.IdentityResetRequest;

export type ConfirmResetPasswordRequest = gen.IdentityConfirmRequest;

export type SsoFeature = gen.AppinfoSSO;

/** The server's settings the screens state or time by, so they never say another number. */
export type ServerLimits = gen.AppinfoLimits;

export type Features = Partial<gen.AppinfoFeatures>;

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

export type Domain = Narrow<gen.AccessDomain, { id: string | number }>;

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

/**
 * A generated type (types.gen.ts) with some fields' types narrowed to what the client knows of
 * them: the server's types say `string` where the spec lists the values.
 */
export type Narrow<T, U> = Omit<T, keyof U> & U;
