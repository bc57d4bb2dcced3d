// Who may use the console, and as what. An operator runs the platform; a merchant user belongs to
// exactly one merchant. What each role may do is decided by the console's pages (requireRole).
export const OPERATOR_ROLES = ['admin', 'support'] as const;
export const MERCHANT_ROLES = ['owner', 'developer', 'viewer'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
export type MerchantRole = (typeof MERCHANT_ROLES)[number];
export type ConsoleRole = OperatorRole | MerchantRole;
export type UserKind = 'operator' | 'merchant';

export const isOperatorRole = (role: string): role is OperatorRole => (OPERATOR_ROLES as readonly string[]).includes(role);
export const isMerchantRole = (role: string): role is MerchantRole => (MERCHANT_ROLES as readonly string[]).includes(role);

/** Whether a role belongs to a kind of user (an operator is never an owner, a merchant user never an admin). */
export function roleFitsKind(kind: UserKind, role: string): boolean {
  return kind === 'operator' ? isOperatorRole(role) : isMerchantRole(role);
}

/** Operators must use TOTP; merchant users may. */
export const totpRequired = (kind: UserKind): boolean => kind === 'operator';

export const ROLE_LABELS: Readonly<Record<ConsoleRole, string>> = {
  admin: 'Operator admin',
  support: 'Operator support (read-only)',
  owner: 'Owner',
  developer: 'Developer',
  viewer: 'Viewer',
};
