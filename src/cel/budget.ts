/** celconfig.RuntimeCELCostBudget: the most all rules of one request may spend. A module of its own
 * so that code reading the budget does not load the CEL engine (see ./admission/load.ts). */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
