/** GET/POST /api/intake: the account's private intake address, when this deployment receives mail. */
export interface IntakeAddressView {
  /** Whether this deployment receives mail at all (INTAKE_DOMAIN and a way in are configured). */
  available: boolean;
  /** The account's address; null when it has none (never made, or turned off). */
  address: string | null;
}
