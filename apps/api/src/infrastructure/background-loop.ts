/** What a background loop's pass tells it: whether it found work (then the next pass follows at once). */
export type LoopPass = (stopping: () => boolean) => Promise<boolean>;

/**
 * Runs `pass` again and again in this process until stopped: at once after a pass that found
 * work, else after `idleMs`; one pass at a time, on an unref'd timer so the loop never keeps the
 * process alive. A pass that throws is reported to `onError` and counts as idle. `stop()` lets the
 * pass under way finish (it can ask `stopping()` to end early) and starts no other. The webhook
 * dispatcher and the bulk runner are such loops.
 */
export function startBackgroundLoop(
  pass: LoopPass,
  options: { idleMs: number; onError: (error: unknown) => void },
): { stop(): Promise<void> } {
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const isStopping = () => stopping;

  const run = async (): Promise<void> => {
    let worked = false;
    try {
      worked = await pass(isStopping);
    } catch (error) {
      options.onError(error);
    }
    if (!stopping) schedule(worked ? 0 : options.idleMs);
  };
  const schedule = (ms: number): void => {
    timer = setTimeout(() => {
      running = run();
    }, ms);
    timer.unref();
  };
  schedule(0);

  return {
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
