// Test order. jest starts the files that took longest last time first, so no long file starts
// late and runs alone at the end. A fresh clone in a new path has no such timings, and jest falls
// back to file size: the long property suites are short files (their harness is in test/support)
// and would start near the end. Without timings, files whose opening comment says `@slow` go first.
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

const isMarkedSlow = (path) => /@slow\b/.test(readFileSync(path, 'utf8').slice(0, 2000));

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests); // sets `duration` from the timings of the last run, if any
    if (sorted.some((test) => test.duration != null)) return sorted;
    const slow = sorted.filter((test) => isMarkedSlow(test.path));
    return [...slow, ...sorted.filter((test) => !slow.includes(test))];
  }
}

module.exports = SlowFirstSequencer;
