// Renders the TypeScript types of the served OpenAPI document with openapi-typescript: the SDK's
// wire types (sdk/src/api-types.ts) are this output, and a test regenerates it to catch drift.
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { startTestServer } from './server.js';

export const API_TYPES_FILE = 'sdk/src/api-types.ts';

const HEADER =
  '// Generated from GET /openapi.json by openapi-typescript (npm run generate:api-types); do not edit.\n' +
  '// The wire types of the merchant API, built from the same TypeBox schemas that validate the routes.\n\n';

export async function servedDocument(): Promise<OpenAPI3> {
  const server = await startTestServer({}, { worker: false });
  try {
    return (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as OpenAPI3;
  } finally {
    await server.close();
  }
}

export async function renderApiTypes(document: OpenAPI3): Promise<string> {
  // The servers entry carries the test server's random port; it has no bearing on the types.
  const ast = await openapiTS({ ...document, servers: [] }, { silent: true });
  return HEADER + astToString(ast);
}
