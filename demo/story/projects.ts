// All four Quayside repositories, in the order the demo tree lists them.

import { apiProject } from './api';
import { infraProject } from './infra';
import type { DemoProject } from './types';
import { webProject } from './web';
import { workerProject } from './worker';

export const demoProjects: readonly DemoProject[] = [apiProject, webProject, workerProject, infraProject];

export const projectAt = (cwd: string): DemoProject | undefined => demoProjects.find((p) => p.cwd === cwd);
