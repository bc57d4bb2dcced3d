// Row types of the console's people (people/): users, their recovery codes, sessions, invitations and
// the login throttle. Integer columns are bigint on both stores. No secret is stored in the clear:
// passwords and recovery codes are scrypt/sha-256 hashes, session ids and invitation tokens sha-256
// hashes, TOTP secrets sealed with SECRET_KEY.

export interface ConsoleUsersTable {
  id: string;
  /** Lower-cased; unique across operators and merchant users. */
  email: string;
  /** operator | merchant */
  kind: string;
  /** operator: admin | support; merchant: owner | developer | viewer */
  role: string;
  /** The merchant a merchant user belongs to; null for operators. */
  merchant_id: string | null;
  /** scrypt$N$r$p$salt$hash (passwords.ts). */
  password_hash: string;
  /** The TOTP secret (base32) sealed with the SecretBox; set at enrolment, confirmed by totp_enabled_at_ms. */
  totp_secret_sealed: string | null;
  totp_enabled_at_ms: bigint | null;
  /** The last accepted TOTP time step: a code is never accepted twice. */
  totp_last_step: bigint | null;
  /** active | disabled */
  status: string;
  created_by: string;
  created_at_ms: bigint;
}

export interface ConsoleRecoveryCodesTable {
  id: string;
  user_id: string;
  /** sha-256 hex of the normalised code (codes carry 50 random bits; a slow hash adds nothing). */
  code_hash: string;
  used_at_ms: bigint | null;
}

export interface ConsoleSessionsTable {
  /** sha-256 hex of the cookie's 256-bit random id: a database read gives no usable session. */
  id_hash: string;
  user_id: string;
  /** The synchronizer token every form of this session carries. */
  csrf_token: string;
  /** enrol: signed in with a password but TOTP not set up yet (operators); full: everything the role allows. */
  stage: string;
  created_at_ms: bigint;
  last_seen_ms: bigint;
  address: string | null;
}

export interface ConsoleInvitationsTable {
  /** sha-256 hex of the link's token. */
  token_hash: string;
  email: string;
  kind: string;
  role: string;
  merchant_id: string | null;
  created_by: string;
  created_at_ms: bigint;
  expires_at_ms: bigint;
  used_at_ms: bigint | null;
}

export interface ConsoleThrottleTable {
  /** account:<email> or address:<ip>. */
  key: string;
  failures: bigint;
  /** How many lockouts this key has had; each doubles the next one. */
  lockouts: bigint;
  last_failure_ms: bigint;
  locked_until_ms: bigint;
}

export interface PeopleTables {
  console_users: ConsoleUsersTable;
  console_recovery_codes: ConsoleRecoveryCodesTable;
  console_sessions: ConsoleSessionsTable;
  console_invitations: ConsoleInvitationsTable;
  console_throttle: ConsoleThrottleTable;
}
