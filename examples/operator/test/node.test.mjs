// The scenarios under Node's built-in test runner: `node --test test/node.test.mjs`.
import { after, before, beforeEach, describe, test } from 'node:test';
import { defineScenarios } from './scenarios.mjs';

defineScenarios({ describe, test, beforeAll: before, afterAll: after, beforeEach });
