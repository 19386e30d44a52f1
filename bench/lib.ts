import { performance } from 'node:perf_hooks'

/** Milliseconds one call of `fn` takes. */
export async function timed(fn: () => unknown | Promise<unknown>): Promise<number> {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

/** Runs `fn` `runs` times after `warmup` runs and returns the sorted durations in ms. */
export async function sample(
  fn: () => unknown | Promise<unknown>,
  runs: number,
  warmup = 3
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) times.push(await timed(fn))
  return times.sort((a, b) => a - b)
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

export function median(sorted: number[]): number {
  return percentile(sorted, 50)
}

/** One result line: `name  value unit  (goal ...)  PASS|MISS`. */
export function report(
  name: string,
  value: number,
  unit: string,
  goal: { max?: number; min?: number }
): boolean {
  const pass = (goal.max === undefined || value <= goal.max) && (goal.min === undefined || value >= goal.min)
  const goalText = goal.max !== undefined ? `goal <= ${goal.max}` : `goal >= ${goal.min}`
  console.log(
    `${name.padEnd(48)} ${value.toFixed(unit === 'x' ? 2 : 1).padStart(10)} ${unit.padEnd(10)} (${goalText})  ${pass ? 'PASS' : 'MISS'}`
  )
  return pass
}
