// The floor a nested call is measured against: a script in a Node worker
// thread hands its arguments to the host with postMessage and waits for the
// result to come back the same way (what the original design did per call).
//
// Protocol on stdin/stdout, one line each: the Go benchmark writes
// "<payload file or -> <count>", this runs count round trips and answers
// with the elapsed nanoseconds (count >= 1). "-" is the small payload:
// { i } echoed.
'use strict';
const { Worker, isMainThread, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const readline = require('node:readline');

if (!isMainThread) {
  // The worker is the script: it sends each call's arguments and waits
  // for the host's answer before sending the next.
  let remaining = 0;
  let i = 0;
  parentPort.on('message', (msg) => {
    if (msg.start !== undefined) {
      remaining = msg.start;
      i = 0;
    } else {
      remaining--;
    }
    if (remaining === 0) {
      parentPort.postMessage({ done: true });
      return;
    }
    i++;
    parentPort.postMessage({ call: { i } });
  });
  return;
}

const worker = new Worker(__filename);
let payload = null; // null: echo the arguments
let started = 0n;
let finish = null;

worker.on('message', (msg) => {
  if (msg.done) {
    finish(process.hrtime.bigint() - started);
    return;
  }
  worker.postMessage(payload === null ? msg.call : payload);
});

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const [file, count] = line.trim().split(' ');
  payload = file === '-' ? null : JSON.parse(fs.readFileSync(file, 'utf8'));
  finish = (ns) => process.stdout.write(ns.toString() + '\n');
  started = process.hrtime.bigint();
  worker.postMessage({ start: Number(count) });
});
rl.on('close', () => worker.terminate());
