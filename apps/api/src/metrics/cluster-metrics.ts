import { AggregatorRegistry, Registry } from 'prom-client';
import { Scrape } from './metrics-listener';

/**
 * A cluster worker's part of the machine's metrics: it answers the primary's request for its
 * registry over the cluster's IPC channel (prom-client's protocol), and serves no port itself.
 */
export function answerScrapesOfPrimary(registry: Registry): void {
  // Constructing an AggregatorRegistry installs the worker's IPC listener (once per process).
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
}

/**
 * The primary's scrape: asks every worker for its registry and merges them (counters and
 * histograms summed, each gauge as it declares), so one scrape of the machine says the same
 * whichever worker would have answered.
 */
export function scrapeEveryWorker(): Scrape {
  const aggregator = new AggregatorRegistry();
  return () => aggregator.clusterMetrics();
}
