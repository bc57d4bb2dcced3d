// Every live connector the service ships, by name. The simulator is not here: it serves sandbox
// merchants only and is started by the composition root.
import type { ConnectorDefinition } from './connector.js';
import { fawryDefinition } from './fawry/definition.js';
import { paymobDefinition } from './paymob/definition.js';
import { paystackDefinition } from './paystack/definition.js';
import { razorpayDefinition } from './razorpay/definition.js';
import { xenditDefinition } from './xendit/definition.js';

export const CONNECTORS: readonly ConnectorDefinition[] = [razorpayDefinition, xenditDefinition, paystackDefinition, fawryDefinition, paymobDefinition];

export const connectorByName = (name: string): ConnectorDefinition | undefined => CONNECTORS.find((c) => c.name === name);
