/** Jest runs the ES modules as they are, without a transform (see the test:jest script). */
export default {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/jest.test.mjs'],
  transform: {},
  // The tests poll with deadlines of their own; this only catches a hang on a very slow machine.
  testTimeout: 60_000,
};
