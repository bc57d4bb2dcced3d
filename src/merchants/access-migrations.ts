// The merchants module's steps of 0011_ip_allow_lists_key_scopes: a merchant's IP allow-list with
// the calls it guards, and each API key's scope. Existing keys get `all`, so nothing a merchant
// already does stops working; existing merchants get no allow-list.
import type { Kysely } from 'kysely';

export async function addIpAllowListsAndKeyScopes(db: Kysely<any>): Promise<void> {
  // The list is a JSON array of normalised ranges (`203.0.113.0/24`); null means no allow-list.
  await db.schema.alterTable('merchants').addColumn('ip_allow_list', 'text').execute();
  await db.schema.alterTable('merchants').addColumn('ip_allow_scope', 'text', (c) => c.notNull().defaultTo('money')).execute();
  await db.schema.alterTable('api_keys').addColumn('scope', 'text', (c) => c.notNull().defaultTo('all')).execute();
}
