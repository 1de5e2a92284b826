#!/usr/bin/env node
// Loom runs from its TypeScript sources: tsx compiles them as they load.
import { register } from 'tsx/esm/api';

register();
await import('../cli.ts');
