//go:build !race

package execlua

import "time"

// hostWorkCPU bounds the CPU time of a run that hands the host megabytes
// to work on (a query, a name, an error): the script's own building of
// them included, far less than the unbounded work it replaces.
const hostWorkCPU = time.Second
