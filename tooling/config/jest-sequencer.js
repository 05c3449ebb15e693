// Test order. jest starts the files that took longest last time first, so no long file starts
// late and runs alone at the end. A fresh clone in a new path has no such timings, and jest falls
// back to file size: the long property suites are short files (their harness is in test/support)
// and would start near the end. Without timings, files whose opening comment says `@slow` go first.
//
// While the test script's build is still running (jest-built-output.js), the files that run the
// built output, among the longest, would hold every worker waiting for it: they start after
// other files worth about the build's time in all.
const { readFileSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;
const { buildRunning, declaresNeedsBuild } = require('./jest-built-output');

const openingOf = (path) => readFileSync(path, 'utf8').slice(0, 2000);
const isMarkedSlow = (path) => /@slow\b/.test(openingOf(path));
const needsBuild = (path) => declaresNeedsBuild(readFileSync(path, 'utf8'));

/**
 * Worker-seconds of other files that go before the ones that run the built output: the build's
 * wall time on a busy two-core machine, on each of two workers.
 */
const WORK_BEFORE_BUILT_FILES_S = 30;
/** What a file without timings is counted as (a typical file of the suite). */
const UNTIMED_FILE_S = 1.5;

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = this.slowFirst(tests);
    return buildRunning() ? this.builtFilesAfterOtherWork(sorted) : sorted;
  }

  slowFirst(tests) {
    const sorted = super.sort(tests); // sets `duration` from the timings of the last run, if any
    if (sorted.some((test) => test.duration != null)) return sorted;
    const slow = sorted.filter((test) => isMarkedSlow(test.path));
    return [...slow, ...sorted.filter((test) => !slow.includes(test))];
  }

  builtFilesAfterOtherWork(sorted) {
    const built = sorted.filter((test) => needsBuild(test.path));
    const others = sorted.filter((test) => !built.includes(test));
    let work = 0;
    let before = 0;
    while (before < others.length && work < WORK_BEFORE_BUILT_FILES_S) {
      work += (others[before].duration ?? UNTIMED_FILE_S * 1000) / 1000;
      before += 1;
    }
    return [...others.slice(0, before), ...built, ...others.slice(before)];
  }
}

module.exports = SlowFirstSequencer;
