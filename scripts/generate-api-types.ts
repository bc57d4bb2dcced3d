// Writes sdk/src/api-types.ts from the OpenAPI document the service serves (see test/helpers/api-types.ts).
import { writeFileSync } from 'node:fs';
import { API_TYPES_FILE, renderApiTypes, servedDocument } from '../test/helpers/api-types.js';

writeFileSync(API_TYPES_FILE, await renderApiTypes(await servedDocument()));
console.log(`wrote ${API_TYPES_FILE}`);
