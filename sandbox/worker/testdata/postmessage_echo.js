// The original design's message round trip, for comparison: the main
// thread posts a small message to a worker thread, which echoes it back.
// Prints the mean round trip in nanoseconds over argv[2] trips.
const { Worker } = require("node:worker_threads");

const n = Number(process.argv[2] || 10000);
const worker = new Worker(
  `const { parentPort } = require("node:worker_threads");
   parentPort.on("message", (m) => parentPort.postMessage(m));`,
  { eval: true },
);
let left = n + 1000; // the first 1000 warm up
let start;
worker.on("message", () => {
  left--;
  if (left === n) start = process.hrtime.bigint();
  if (left > 0) {
    worker.postMessage({ id: left, name: "t", args: { i: left } });
    return;
  }
  console.log(Number(process.hrtime.bigint() - start) / n);
  worker.terminate();
});
worker.postMessage({ id: left, name: "t", args: { i: left } });
