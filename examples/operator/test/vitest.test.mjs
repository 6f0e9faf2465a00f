// The scenarios under Vitest: `vitest run` (vitest.config.mjs picks this file only).
import { afterAll, beforeAll, beforeEach, describe, test } from 'vitest';
import { defineScenarios } from './scenarios.mjs';

defineScenarios({ describe, test, beforeAll, afterAll, beforeEach });
