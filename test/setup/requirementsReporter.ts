// Prints once, at the end of the run, how many tests did not run for want of a program.
import type { Reporter, TestModule } from 'vitest/node'

export default class RequirementsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let notRun = 0
    for (const testModule of testModules)
      for (const test of testModule.children.allTests('skipped'))
        if (test.meta().needs === 'bubblewrap') notRun++
    if (notRun > 0)
      console.log(`\nbubblewrap not installed: ${notRun} sandbox tests not run; apt install bubblewrap\n`)
  }
}
