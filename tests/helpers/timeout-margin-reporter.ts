import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';

/**
 * Lists, at the end of a run, every test that took more than a third of its timeout.
 *
 * A test that needs most of its timeout on a quiet machine fails on a loaded one, so the suite keeps
 * each test within a third of its limit (docs/architecture.md "Tests"). Vitest's JSON report has
 * durations but not timeouts; this reads both from the runner's task. It reports and does not fail
 * the run: the figure moves with the machine's load, and a red run for a slow-but-passing test would
 * be the flakiness this guards against.
 */
export default class TimeoutMarginReporter implements Reporter {
  private readonly close: { name: string; duration: number; timeout: number }[] = [];
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestCaseResult(testCase: TestCase): void {
    const duration = testCase.diagnostic()?.duration ?? 0;
    const task = this.vitest?.state.idMap.get(testCase.id);
    const timeout = task?.type === 'test' ? task.timeout : 0;
    if (timeout > 0 && duration * 3 > timeout) {
      this.close.push({ name: `${testCase.module.relativeModuleId} > ${testCase.fullName}`, duration, timeout });
    }
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>): void {
    if (this.close.length === 0) {
      console.log('Every test finished within a third of its timeout.');
      return;
    }
    console.log(`${this.close.length} test(s) took more than a third of their timeout:`);
    for (const test of this.close.sort((a, b) => b.duration / b.timeout - a.duration / a.timeout)) {
      console.log(`  ${(test.duration / 1000).toFixed(1)} s of ${(test.timeout / 1000).toFixed(0)} s  ${test.name}`);
    }
  }
}
