import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/vitest.test.mjs'],
    // `nanokube` is linked from the repository (file:../..): once the link is followed its built
    // code is outside node_modules, and Vite would transform it as this project's own source
    // (seconds). Load it natively instead, as dependencies in node_modules are.
    server: { deps: { external: [/\/dist\//] } },
    // The tests poll with deadlines of their own; these only catch a hang on a very slow machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
