import { groups } from '../src/checks/index.ts';
import { defineChecks } from '../src/suite.ts';

defineChecks(groups.generationModes);
