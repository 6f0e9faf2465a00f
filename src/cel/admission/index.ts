// CEL for admission: the environment, compilation, activations and evaluation of expression lists.
export * from './environment.js';
export * from './compile.js';
export * from './activation.js';
export * from './filter.js';
