// The scenarios under Jest: `NODE_OPTIONS=--experimental-vm-modules jest` (jest.config.mjs picks
// this file only; ES modules without a transform).
import { afterAll, beforeAll, beforeEach, describe, test } from '@jest/globals';
import { defineScenarios } from './scenarios.mjs';

defineScenarios({ describe, test, beforeAll, afterAll, beforeEach });
