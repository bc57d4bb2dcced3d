// Every live connector the service ships, by name. The simulator is not here: it serves sandbox
// merchants only and is started by the composition root.
import type { ConnectorDefinition } from './connector.js';
import { razorpayDefinition } from './razorpay/definition.js';

export const CONNECTORS: readonly ConnectorDefinition[] = [razorpayDefinition];

export const connectorByName = (name: string): ConnectorDefinition | undefined => CONNECTORS.find((c) => c.name === name);
