// Command benchtable runs the benchmarks behind the README's table of
// figures several times and prints that table with the median and the
// range of each figure, and the load average while they ran: `make bench`.
//
// The machine it runs on is usually shared, so a figure from one quiet run
// is not one anyone can check. Each test binary is built once; the runs
// then go round the packages in turn (floors and what they floor are in
// one benchmark that alternates them in chunks, BenchmarkFloors), so the
// load drifts over every figure alike. Figures that are absolute times say
// so and are given in CPU time where the benchmark reports it.
package main
