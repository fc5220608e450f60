package sandbox

import "time"

// How promptly a run stops is checked in the CPU time the test process
// spends (cputime.Spent), not on the wall clock: a run that goes on past
// its stop keeps a processor busy, while a machine busy with other work
// delays the wall clock of a run that stopped at once (a loaded two-core
// machine has put seconds between a stop and the return).

// ownLimitBudget is the budget of a script expected to end on a limit of
// its own (a size, a depth): out of reach on any machine, however loaded,
// so that the limit and not the clock decides the outcome.
const ownLimitBudget = 5 * time.Minute
