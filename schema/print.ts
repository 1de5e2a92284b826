import { writeFileSync } from 'node:fs';
import { printLoomSchema } from './index';

// `npm run schema:print`: rewrites schema/schema.graphql from the code.
writeFileSync(new URL('./schema.graphql', import.meta.url), printLoomSchema());
